/** Seeding: many charges put straight into the state, every row checked first, all kept or none. */
import { throwIssues } from '../../core/options.js';
import type { ValidationIssue } from '../../errors/base.js';
import type { AuthChannel } from '../../types.js';
import { newCharge, recordDebit, recordRefund, sandboxFee } from './charges.js';
import { findCustomer } from './customers.js';
import type { Charge, SandboxState } from './store.js';

/** The statuses a seeded charge may have. */
export type SandboxSeedStatus = 'SUCCESS' | 'FAILED' | 'PENDING_AUTHORIZATION' | 'EXPIRED';

/** One charge to seed. Only `reference`, `amount` and `status` are required. */
export interface SandboxSeedCharge {
  /** The merchant's reference; one the sandbox already holds, or one repeated in the seed, is refused. */
  reference: string;
  /** Kobo, a positive whole number. */
  amount: number;
  /** Where it is: `PENDING_AUTHORIZATION` waits `promptTtlMs` from now; `EXPIRED` verifies as `FAILED`. */
  status: SandboxSeedStatus;
  /** Who pays: a handle or phone the sandbox knows. @default '@ada' */
  handle?: string;
  /**
   * The fee of a `SUCCESS` charge, Kobo: another than the rule's seeds one a reconciliation should flag.
   * @default the fee rule: 2%, rounded half up, capped at 200000
   */
  fee?: number;
  /** The net amount of a `SUCCESS` charge, Kobo. @default amount - fee */
  netAmount?: number;
  /** Kobo refunded from a `SUCCESS` charge (`true`: all), kept as one refund record. @default 0 */
  refunded?: number | boolean;
  /** When a `SUCCESS` charge was paid (ISO-8601). @default now */
  paidAt?: string;
  /** The channel of its dispatch. @default 'wallet_push' */
  channel?: AuthChannel;
}

/** What `sandbox.seed()` did. */
export interface SandboxSeedResult {
  /** Charges added. */
  readonly seeded: number;
  /** Charges the sandbox holds now. */
  readonly charges: number;
}

const STATUSES: ReadonlySet<string> = new Set(['SUCCESS', 'FAILED', 'PENDING_AUTHORIZATION', 'EXPIRED']);
const PAID_ONLY = ['fee', 'netAmount', 'refunded', 'paidAt'] as const;
const FIELDS = new Set<string>(['reference', 'amount', 'status', 'handle', 'channel', ...PAID_ONLY]);
const MAX_ISSUES = 20;

const kobo = (value: unknown, zero: boolean): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && (zero ? value >= 0 : value > 0);

function rowIssues(state: SandboxState, row: unknown, at: string, seen: Set<string>): ValidationIssue[] {
  if (typeof row !== 'object' || row === null || Array.isArray(row))
    return [{ path: at, message: 'must be an object { reference, amount, status }' }];
  const r = row as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const bad = (field: string, message: string): void => void issues.push({ path: `${at}.${field}`, message });
  for (const field in r) if (!FIELDS.has(field)) bad(field, 'is not a field of a seeded charge');
  const { reference, amount, status } = r;
  if (typeof reference !== 'string' || reference.trim() === '' || reference.length > 255) {
    bad('reference', 'must be a non-empty string of at most 255 characters');
  } else if (seen.has(reference)) bad('reference', `repeats '${reference}'`);
  else if (state.charges.has(reference))
    bad('reference', `'${reference}' is already a charge of the sandbox`);
  else seen.add(reference);
  if (!kobo(amount, false)) bad('amount', 'must be a positive whole number of Kobo');
  if (typeof status !== 'string' || !STATUSES.has(status))
    bad('status', `must be one of ${[...STATUSES].join(', ')}`);
  if (r.handle !== undefined && (typeof r.handle !== 'string' || !findCustomer(state.customers, r.handle)))
    bad('handle', 'must be the handle or phone of a customer of the sandbox');
  if (r.channel !== undefined && r.channel !== 'wallet_push' && r.channel !== 'wallet_qr')
    bad('channel', 'must be wallet_push or wallet_qr');
  if (status !== 'SUCCESS') {
    for (const field of PAID_ONLY) if (r[field] !== undefined) bad(field, 'is only for a SUCCESS charge');
    return issues;
  }
  if (r.fee !== undefined && !kobo(r.fee, true)) bad('fee', 'must be a whole number of Kobo, 0 or more');
  if (r.netAmount !== undefined && !Number.isSafeInteger(r.netAmount))
    bad('netAmount', 'must be a whole number of Kobo');
  const { refunded } = r;
  const refundable =
    typeof refunded === 'boolean' || (kobo(refunded, true) && (refunded as number) <= (amount as number));
  if (refunded !== undefined && !refundable)
    bad('refunded', 'must be true, false or a whole number of Kobo up to the amount');
  if (r.paidAt !== undefined && (typeof r.paidAt !== 'string' || Number.isNaN(Date.parse(r.paidAt))))
    bad('paidAt', 'must be an ISO-8601 date');
  return issues;
}

/** The problems of a seed, at most twenty, by path (`3.amount`). */
function seedIssues(state: SandboxState, rows: unknown): ValidationIssue[] {
  if (!Array.isArray(rows)) return [{ path: '', message: 'must be an array of charges' }];
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const { maxCharges } = state.limits;
  if (rows.length > maxCharges)
    return [{ path: '', message: `has ${rows.length} charges, more than maxCharges (${maxCharges}) keeps` }];
  for (let i = 0; i < rows.length && issues.length < MAX_ISSUES; i += 1)
    issues.push(...rowIssues(state, rows[i], String(i), seen));
  return issues.slice(0, MAX_ISSUES);
}

function seededCharge(state: SandboxState, row: SandboxSeedCharge, now: Date, ttlMs: number): Charge {
  const customer = findCustomer(state.customers, row.handle ?? '@ada')!;
  const charge = newCharge(row.reference, row.amount, customer, now);
  charge.status = row.status;
  charge.bankId =
    (customer.banks.find((b) => b.mandateStatus === 'ACTIVE') ?? customer.banks[0])?.bankId ?? null;
  charge.channel = row.channel ?? 'wallet_push';
  charge.prompts = 1;
  charge.expiresAt =
    row.status === 'EXPIRED' ? charge.createdAt : new Date(now.getTime() + ttlMs).toISOString();
  if (row.status !== 'SUCCESS') return charge;
  charge.fee = row.fee ?? sandboxFee(row.amount);
  charge.netAmount = row.netAmount ?? row.amount - charge.fee;
  charge.paidAt = row.paidAt === undefined ? charge.createdAt : new Date(row.paidAt).toISOString();
  charge.refundedAmount = row.refunded === true ? row.amount : row.refunded || 0;
  return charge;
}

/** Checks every row (nothing kept on a problem), then keeps them with their debits and refunds. @internal */
export function seedCharges(
  state: SandboxState,
  rows: readonly SandboxSeedCharge[],
  now: Date,
  ttlMs: number,
): SandboxSeedResult {
  throwIssues('seed() charges', seedIssues(state, rows));
  state.makeRoomFor(rows.length, now);
  for (const row of rows) {
    const charge = seededCharge(state, row, now, ttlMs);
    state.charges.set(charge.reference, charge);
    if (charge.paidAt === null) continue;
    recordDebit(state, charge);
    if (charge.refundedAmount > 0)
      recordRefund(state, charge.reference, charge.refundedAmount, 'seeded', charge.paidAt);
  }
  return { seeded: rows.length, charges: state.charges.size };
}
