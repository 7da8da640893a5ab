/**
 * Seeding: many charges put straight into the state, in any state a reconciliation meets (paid,
 * pending, failed, expired, refunded, with a fee that disagrees with the fee rule), without a
 * request per charge. Checked row by row first (seed-check.ts), then kept all together or not at
 * all.
 */
import type { AuthChannel } from '../../types.js';
import { newCharge, sandboxFee } from './charges.js';
import { findCustomer } from './customers.js';
import type { SandboxCustomer } from './customers.js';
import { newRefundReference } from './refunds.js';
import type { SandboxChargeStatus } from './records.js';
import type { Charge, SandboxState } from './store.js';

/** The statuses a seeded charge may have. */
export type SandboxSeedStatus = Extract<
  SandboxChargeStatus,
  'SUCCESS' | 'FAILED' | 'PENDING_AUTHORIZATION' | 'EXPIRED'
>;

/** One charge to seed. Only `reference`, `amount` and `status` are required. */
export interface SandboxSeedCharge {
  /** The merchant's reference; one the sandbox already holds, or one repeated in the seed, is refused. */
  reference: string;
  /** Kobo, a positive whole number. */
  amount: number;
  /**
   * Where the charge is. `PENDING_AUTHORIZATION` waits for the customer until `promptTtlMs` from
   * now (authorize, decline and expire work on it); `EXPIRED` verifies as `FAILED`.
   */
  status: SandboxSeedStatus;
  /**
   * Who pays: a handle or phone the sandbox knows.
   * @default '@ada'
   */
  handle?: string;
  /**
   * The fee of a `SUCCESS` charge, Kobo. Give one the fee rule does not give to seed a charge a
   * reconciliation should flag.
   * @default the fee rule: 2%, rounded half up, capped at 200000
   */
  fee?: number;
  /**
   * The net amount of a `SUCCESS` charge, Kobo.
   * @default amount - fee
   */
  netAmount?: number;
  /**
   * Kobo already refunded from a `SUCCESS` charge, or `true` for all of it; one refund record is
   * kept for it.
   * @default 0
   */
  refunded?: number | boolean;
  /**
   * When a `SUCCESS` charge was paid (ISO-8601).
   * @default now
   */
  paidAt?: string;
  /**
   * The channel of its dispatch.
   * @default 'wallet_push'
   */
  channel?: AuthChannel;
}

/** What `sandbox.seed()` did. */
export interface SandboxSeedResult {
  /** Charges added. */
  readonly seeded: number;
  /** Charges the sandbox holds now. */
  readonly charges: number;
}

/** What seeding needs besides the rows. @internal */
export interface SeedContext {
  now: Date;
  /** How long a seeded pending charge waits for its customer, ms. */
  ttlMs: number;
}

/** What every row of one seed shares: computed once, so 100,000 rows cost one pass. */
interface Shared {
  now: Date;
  nowIso: string;
  pendingUntil: string;
  customers: Map<string, { customer: SandboxCustomer; who: Charge['customer']; bankId: string | null }>;
}

function who(
  state: SandboxState,
  shared: Shared,
  handle: string,
): NonNullable<ReturnType<Shared['customers']['get']>> {
  let found = shared.customers.get(handle);
  if (found === undefined) {
    const customer = findCustomer(state.customers, handle)!;
    const bank = customer.banks.find((b) => b.mandateStatus === 'ACTIVE') ?? customer.banks[0];
    const { phone, name } = customer;
    found = {
      customer,
      who: Object.freeze({ handle: customer.handle, phone, name }),
      bankId: bank?.bankId ?? null,
    };
    shared.customers.set(handle, found);
  }
  return found;
}

function seededCharge(state: SandboxState, row: SandboxSeedCharge, shared: Shared): Charge {
  const payer = who(state, shared, row.handle ?? '@ada');
  const charge = newCharge(row.reference, row.amount, payer.customer, shared.now, shared.nowIso);
  charge.customer = payer.who;
  charge.status = row.status;
  charge.bankId = payer.bankId;
  charge.channel = row.channel ?? 'wallet_push';
  charge.prompts = 1;
  charge.expiresAt = row.status === 'EXPIRED' ? shared.nowIso : shared.pendingUntil;
  if (row.status !== 'SUCCESS') return charge;
  charge.fee = row.fee ?? sandboxFee(row.amount);
  charge.netAmount = row.netAmount ?? row.amount - charge.fee;
  charge.paidAt = row.paidAt === undefined ? shared.nowIso : new Date(row.paidAt).toISOString();
  charge.refundedAmount =
    row.refunded === true ? row.amount : row.refunded === false ? 0 : (row.refunded ?? 0);
  return charge;
}

/**
 * Keeps checked rows (see {@link seedIssues}) as charges, with a debit for each paid one and a
 * refund record for each refunded one.
 * @internal
 */
export function seedCharges(
  state: SandboxState,
  rows: readonly SandboxSeedCharge[],
  at: SeedContext,
): SandboxSeedResult {
  state.makeRoomFor(rows.length, at.now);
  const shared: Shared = {
    now: at.now,
    nowIso: at.now.toISOString(),
    pendingUntil: new Date(at.now.getTime() + at.ttlMs).toISOString(),
    customers: new Map(),
  };
  for (const row of rows) {
    const charge = seededCharge(state, row, shared);
    state.charges.set(charge.reference, charge);
    if (charge.status !== 'SUCCESS' || charge.paidAt === null) continue;
    const { reference, amount } = charge;
    state.debits.push({
      reference,
      amount,
      handle: charge.customer.handle,
      bankId: charge.bankId ?? '',
      at: charge.paidAt,
    });
    if (charge.refundedAmount > 0) {
      state.refunds.push({
        refundReference: newRefundReference(),
        reference,
        amount: charge.refundedAmount,
        currency: 'NGN',
        status: 'PROCESSED',
        reason: 'seeded',
        refundedAt: charge.paidAt,
      });
    }
  }
  return { seeded: rows.length, charges: state.charges.size };
}
