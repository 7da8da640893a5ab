/**
 * The service's resources as the SDK returns them, and the parameters it takes. Amounts are
 * integer Kobo throughout (100 Kobo = 1 Naira). Enumerations list the documented values and also
 * admit any other string, so a value the service adds later never breaks a merchant's build.
 */

/** A string the service may extend later: the listed values autocomplete, others still type-check. */
export type OpenString<Known extends string> = Known | (string & {});

/** An authorization channel the merchant can dispatch on. */
export type AuthChannel = 'wallet_push' | 'wallet_qr';

/** A JSON value, as `metadata` may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Parameters of {@link Charges.resolveHandle}. @expand */
export interface ResolveHandleParams {
  /** The customer's handle, with or without a leading `@`, or their registered phone number (sent unchanged). */
  handle: string;
  /** The amount to charge, in Kobo: a positive whole number. Use `toKobo()` to convert Naira. */
  amount: number;
  /** Your unique order reference; the service uses it to prevent duplicate billing. */
  reference: string;
}

/** The customer's display profile. */
export interface Customer {
  /** The customer's handle, with a leading `@`. */
  handle: string;
  /** Display name. */
  name: string;
  /** URL of the avatar image. */
  avatarUrl: string;
}

/** A channel the customer can authorize on. */
export interface AvailableAuthChannel {
  /** Channel id to pass as `authChannel` to dispatch. */
  id: OpenString<AuthChannel>;
  /** Display name. */
  name: string;
  /** Present, and `true`, on the recommended channel only. */
  isRecommended?: boolean;
}

/** A bank account of the customer's with an active debit mandate. */
export interface LinkedBank {
  /** Pass this to dispatch as `bankId`. */
  bankId: string;
  /** Display name of the bank. */
  bankName: string;
  /** Bank code. */
  bankCode: string;
  /** Account number with all but the last four digits replaced by `*`. */
  accountNumberMasked: string;
  /** Only `ACTIVE` mandates are listed. */
  mandateStatus: OpenString<'ACTIVE'>;
}

/** Result of {@link Charges.resolveHandle}. @expand */
export interface ResolvedCustomer {
  /** Who the customer is. */
  customer: Customer;
  /** Channels the customer can authorize on. */
  availableAuthChannels: AvailableAuthChannel[];
  /** Bank accounts with an active mandate, for the customer to choose from. */
  linkedBanks: LinkedBank[];
}

/** Parameters of {@link Charges.dispatch}. @expand */
export interface DispatchParams {
  /** The reference used at resolve. */
  reference: string;
  /** The `bankId` the customer chose from `linkedBanks`. */
  bankId: string;
  /** `wallet_push` for an in-app prompt, `wallet_qr` for a dynamic QR code. */
  authChannel: AuthChannel;
  /** Shown on the customer's authorization screen. */
  description?: string;
  /** Your own key-value pairs for order tracking: a plain object of JSON values. */
  metadata?: { [key: string]: JsonValue };
}

/** State of a dispatched charge. */
export type DispatchStatus = OpenString<'PENDING_AUTHORIZATION' | 'PENDING_SCAN'>;

/** Result of {@link Charges.dispatch}. @expand */
export interface ChargeDispatch {
  /** Your transaction reference. */
  reference: string;
  /** `PENDING_AUTHORIZATION` for a push, `PENDING_SCAN` for a QR code. */
  status: DispatchStatus;
  /** The channel the prompt went out on. */
  authChannel: OpenString<AuthChannel>;
  /** URL of the dynamic QR code; only for `wallet_qr`. */
  qrCodeUrl?: string;
  /** When the prompt expires (ISO-8601). */
  expiresAt: string;
}

/**
 * A transaction status this SDK version does not know yet; a plain string at run time. Branded so
 * `tx.status === 'SUCCESS'` narrows {@link Transaction} (compare a new one as `(tx.status as string)
 * === 'REVERSED'`); a string brand, not a `unique symbol`, so ESM and CommonJS share one type.
 */
export type UnknownTransactionStatus = `${string & {
  /** A compile-time brand only; never present at run time. */
  readonly '@wallet/node.unknownStatus': true;
}}`;

/** State of a charge as verify reports it. Give value only on `SUCCESS`. */
export type TransactionStatus = 'SUCCESS' | 'FAILED' | 'PENDING_AUTHORIZATION' | UnknownTransactionStatus;

/** Channel a transaction was paid on. */
export type TransactionChannel = OpenString<'wallet_push' | 'wallet_qr' | 'wallet_pos'>;

/** Settlement of a paid transaction to the merchant. */
export interface Settlement {
  /** `SETTLED` once paid out. */
  status: OpenString<'SETTLED'>;
  /** When it settled (ISO-8601). */
  settledAt: string;
}

/** What every {@link Transaction} carries, whatever its status. */
export interface TransactionFields {
  /** Your transaction reference. */
  reference: string;
  /** Amount paid, Kobo. */
  amount: number;
  /** Currency code, `NGN`. */
  currency: string;
  /** Channel the customer paid on. */
  channel: TransactionChannel;
  /** Who paid. */
  customer: {
    /** Handle with a leading `@`. */
    handle: string;
    /** Registered phone number. */
    phone: string;
    /** Display name. */
    name: string;
  };
  /** Settlement details; absent or null until the payout settles, which may be after `SUCCESS`. */
  settlement?: Settlement | null;
}

/**
 * A paid transaction: `status` is `SUCCESS`, and the fields that exist once a charge is paid are
 * there (the SDK refuses a `SUCCESS` answer without them as a `ResponseValidationError`).
 */
export interface PaidTransaction extends TransactionFields {
  /** `SUCCESS`: the customer paid; give value. */
  status: 'SUCCESS';
  /** Gateway fee, Kobo. */
  fee: number;
  /** Your payout after the fee, Kobo. */
  netAmount: number;
  /** When payment completed (ISO-8601). */
  paidAt: string;
}

/** A transaction that is not paid: failed, still waiting for the customer, or a status added later. */
export interface UnpaidTransaction extends TransactionFields {
  /** `FAILED`, `PENDING_AUTHORIZATION`, or a status this SDK version does not know yet. */
  status: 'FAILED' | 'PENDING_AUTHORIZATION' | UnknownTransactionStatus;
  /** Gateway fee, Kobo: absent or null until the charge is paid. */
  fee?: number | null;
  /** Your payout after the fee, Kobo: absent or null until the charge is paid. */
  netAmount?: number | null;
  /** When payment completed: absent or null until the charge is paid. */
  paidAt?: string | null;
}

/**
 * A transaction as {@link Charges.verify} reports it. Checking `status` tells TypeScript which
 * fields are there: after `tx.status === 'SUCCESS'`, `fee`, `netAmount` and `paidAt` are set.
 *
 * @example
 * ```ts
 * const tx = await wallet.charges.verify('order_1042');
 * if (tx.status === 'SUCCESS') console.log(`paid, fee ${formatNaira(tx.fee)}, net ${formatNaira(tx.netAmount)}`);
 * else console.log('not paid:', tx.status);
 * ```
 */
export type Transaction = PaidTransaction | UnpaidTransaction;

/** Parameters of {@link Refunds.create}. @expand */
export interface RefundParams {
  /** Reference of the original successful payment. */
  reference: string;
  /** Kobo to refund. Omit to refund the whole transaction. */
  amount?: number;
  /** Your reason for the refund. */
  reason?: string;
}

/** State of a refund. */
export type RefundStatus = OpenString<'PROCESSED' | 'PENDING'>;

/** Result of {@link Refunds.create}. @expand */
export interface Refund {
  /** Unique refund reference. */
  refundReference: string;
  /** Refunded amount, Kobo. */
  amount: number;
  /** Currency code, `NGN`. */
  currency: string;
  /** `PROCESSED` or `PENDING`. */
  status: RefundStatus;
  /** When the refund was made (ISO-8601). */
  refundedAt?: string;
}
