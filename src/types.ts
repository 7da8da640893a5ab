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

/** State of a charge as verify reports it. */
export type TransactionStatus = OpenString<'SUCCESS' | 'FAILED' | 'PENDING_AUTHORIZATION'>;

/** Channel a transaction was paid on. */
export type TransactionChannel = OpenString<'wallet_push' | 'wallet_qr' | 'wallet_pos'>;

/** Settlement of a paid transaction to the merchant. */
export interface Settlement {
  /** `SETTLED` once paid out. */
  status: OpenString<'SETTLED'>;
  /** When it settled (ISO-8601). */
  settledAt: string;
}

/** A transaction as {@link Charges.verify} reports it. @expand */
export interface Transaction {
  /** Your transaction reference. */
  reference: string;
  /** Amount paid, Kobo. */
  amount: number;
  /** Currency code, `NGN`. */
  currency: string;
  /** Gateway fee, Kobo. Present once the charge is `SUCCESS`; may be absent or null before. */
  fee?: number | null;
  /** Your payout after the fee, Kobo. Present once `SUCCESS`. */
  netAmount?: number | null;
  /** `SUCCESS`, `FAILED` or `PENDING_AUTHORIZATION`. Give value only on `SUCCESS`. */
  status: TransactionStatus;
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
  /** Settlement details. Present once `SUCCESS`. */
  settlement?: Settlement | null;
  /** When payment completed (ISO-8601). Present once `SUCCESS`. */
  paidAt?: string | null;
}

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
