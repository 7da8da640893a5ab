/**
 * What a seed row may say, checked before anything is kept: every problem of every row by path
 * (`3.amount`), at most twenty, so a seed is kept whole or not at all.
 */
import type { ValidationIssue } from '../../errors/base.js';
import { findCustomer } from './customers.js';
import type { SandboxState } from './store.js';

const STATUSES: ReadonlySet<string> = new Set(['SUCCESS', 'FAILED', 'PENDING_AUTHORIZATION', 'EXPIRED']);
const FIELDS: ReadonlySet<string> = new Set([
  'reference',
  'amount',
  'status',
  'handle',
  'fee',
  'netAmount',
  'refunded',
  'paidAt',
  'channel',
]);
const PAID_ONLY = ['fee', 'netAmount', 'refunded', 'paidAt'] as const;
const MAX_ISSUES = 20;

const kobo = (value: unknown, zero: boolean): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && (zero ? value >= 0 : value > 0);

function rowIssues(state: SandboxState, row: unknown, at: string, seen: Set<string>): ValidationIssue[] {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return [{ path: at, message: 'must be an object { reference, amount, status }' }];
  }
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
  if (r.handle !== undefined && (typeof r.handle !== 'string' || !findCustomer(state.customers, r.handle))) {
    bad('handle', 'must be the handle or phone of a customer of the sandbox');
  }
  if (r.channel !== undefined && r.channel !== 'wallet_push' && r.channel !== 'wallet_qr') {
    bad('channel', 'must be wallet_push or wallet_qr');
  }
  if (status !== 'SUCCESS') {
    for (const field of PAID_ONLY) if (r[field] !== undefined) bad(field, 'is only for a SUCCESS charge');
    return issues;
  }
  if (r.fee !== undefined && !kobo(r.fee, true)) bad('fee', 'must be a whole number of Kobo, 0 or more');
  if (r.netAmount !== undefined && !(typeof r.netAmount === 'number' && Number.isSafeInteger(r.netAmount))) {
    bad('netAmount', 'must be a whole number of Kobo');
  }
  const refunded = r.refunded;
  if (
    refunded !== undefined &&
    typeof refunded !== 'boolean' &&
    !(kobo(refunded, true) && (refunded as number) <= (amount as number))
  ) {
    bad('refunded', 'must be true, false or a whole number of Kobo up to the amount');
  }
  if (r.paidAt !== undefined && (typeof r.paidAt !== 'string' || Number.isNaN(Date.parse(r.paidAt)))) {
    bad('paidAt', 'must be an ISO-8601 date');
  }
  return issues;
}

/**
 * The problems of a seed, at most twenty, by path (`3.amount`); empty when every row is fine.
 * @internal
 */
export function seedIssues(state: SandboxState, rows: unknown): ValidationIssue[] {
  if (!Array.isArray(rows)) return [{ path: '', message: 'must be an array of charges' }];
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const { maxCharges } = state.limits;
  if (rows.length > maxCharges) {
    return [{ path: '', message: `has ${rows.length} charges, more than maxCharges (${maxCharges}) keeps` }];
  }
  for (let i = 0; i < rows.length && issues.length < MAX_ISSUES; i += 1) {
    issues.push(...rowIssues(state, rows[i], String(i), seen));
  }
  return issues.slice(0, MAX_ISSUES);
}
