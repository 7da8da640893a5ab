/** The sandbox's customers, found by handle (any case, `@` optional) or Nigerian phone number. */
import type { LinkedBank } from '../../types.js';

/** What a handle may be made of. @internal */
export const HANDLE: RegExp = /^@?[A-Za-z0-9_.-]{1,64}$/;

/** A bank account of a sandbox customer, as a test sets it up. */
export interface SandboxBankInit {
  /** The id resolve lists and dispatch takes. */
  bankId: string;
  /** Display name, for example `GTBank`. */
  bankName: string;
  /** Bank code, for example `058`. */
  bankCode: string;
  /** The full account number; resolve shows only its last four digits. */
  accountNumber: string;
  /** The debit mandate's status: resolve lists and dispatch takes only `ACTIVE` ones. @default 'ACTIVE' */
  mandateStatus?: string;
}

/** A customer of the sandbox, as a test sets one up. */
export interface SandboxCustomerInit {
  /** The handle, with or without a leading `@`; stored with one. */
  handle: string;
  /** Registered phone number in international form, for example `+2348000000001`. */
  phone: string;
  /** Display name. */
  name: string;
  /** URL of the avatar image. @default `https://sandbox.wallet.test/avatars/<handle>.png` */
  avatarUrl?: string;
  /** The customer's bank accounts, with any mandate status. @default [] */
  banks?: readonly SandboxBankInit[];
}

/** A customer as the sandbox holds it: every field filled in. */
export interface SandboxCustomer {
  /** Handle with a leading `@`. */
  readonly handle: string;
  /** Registered phone number. */
  readonly phone: string;
  /** Display name. */
  readonly name: string;
  /** URL of the avatar image. */
  readonly avatarUrl: string;
  /** Every bank account, whatever its mandate status. */
  readonly banks: readonly Required<SandboxBankInit>[];
}

/**
 * The customers every sandbox starts with: `@ada` with an ACTIVE and a REVOKED mandate (only ACTIVE
 * ones are listed), `@tunde` with an ACTIVE one.
 *
 * @example
 * ```ts
 * const ada = defaultSandboxCustomers[0]; // { handle: '@ada', phone: '+2348000000001', ... }
 * ```
 */
export const defaultSandboxCustomers: readonly SandboxCustomerInit[] = [
  {
    handle: '@ada',
    phone: '+2348000000001',
    name: 'Ada Lovelace',
    banks: [
      { bankId: 'bnk_ada_gtb', bankName: 'GTBank', bankCode: '058', accountNumber: '0123451234' },
      {
        bankId: 'bnk_ada_access',
        bankName: 'Access Bank',
        bankCode: '044',
        accountNumber: '0987655678',
        mandateStatus: 'REVOKED',
      },
    ],
  },
  {
    handle: '@tunde',
    phone: '+2348000000002',
    name: 'Tunde Bakare',
    banks: [
      { bankId: 'bnk_tunde_zenith', bankName: 'Zenith Bank', bankCode: '057', accountNumber: '2233445566' },
    ],
  },
];

/** A handle as stored, and the key a customer is kept under: with one `@`, lower case. @internal */
export function withAt(handle: string): string {
  return `@${handle.trim().replace(/^@/, '').toLowerCase()}`;
}

/** A phone's national digits (`+234 800…`, `234800…`, `0800…` alike), or `undefined`. @internal */
export function phoneKey(phone: string): string | undefined {
  const trimmed = phone.trim();
  if (!/^\+?[\d\s()-]+$/.test(trimmed)) return undefined;
  return trimmed.replace(/\D/g, '').replace(/^(234|0)/, '');
}

/** Fills in a customer's defaults. @internal */
export function toSandboxCustomer(init: SandboxCustomerInit): SandboxCustomer {
  const handle = withAt(init.handle);
  return Object.freeze({
    handle,
    phone: init.phone,
    name: init.name,
    avatarUrl: init.avatarUrl ?? `https://sandbox.wallet.test/avatars/${handle.slice(1)}.png`,
    banks: Object.freeze(
      (init.banks ?? []).map((bank) => Object.freeze({ mandateStatus: 'ACTIVE', ...bank })),
    ),
  });
}

/** Finds a customer by handle (with or without `@`) or phone. @internal */
export function findCustomer(
  customers: ReadonlyMap<string, SandboxCustomer>,
  query: string,
): SandboxCustomer | undefined {
  const key = phoneKey(query);
  const samePhone = (customer: SandboxCustomer): boolean => !!key && phoneKey(customer.phone) === key;
  return customers.get(withAt(query)) ?? [...customers.values()].find(samePhone);
}

/** The banks resolve lists: only ACTIVE mandates, all but the last four digits masked. @internal */
export function linkedBanks(customer: SandboxCustomer): LinkedBank[] {
  return customer.banks
    .filter((bank) => bank.mandateStatus === 'ACTIVE')
    .map(({ bankId, bankName, bankCode, accountNumber, mandateStatus }) => ({
      bankId,
      bankName,
      bankCode,
      accountNumberMasked: '*'.repeat(Math.max(accountNumber.length - 4, 0)) + accountNumber.slice(-4),
      mandateStatus,
    }));
}
