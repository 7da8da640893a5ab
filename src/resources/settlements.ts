// Each day's bank credit, by the merchant's calendar (23:30 UTC is the next day in Lagos).
import { checkOptions } from '../core/options.js';
import { ValidationError, type ValidationIssue } from '../errors/base.js';
import { describe, quoted } from '../internal/values.js';
import type { Transaction } from '../types.js';

/** Options of {@link summarizeSettlements}. */
export interface SettlementOptions {
  /**
   * The IANA time zone whose calendar days the settlements are grouped by: your bank's.
   * @default 'Africa/Lagos'
   */
  timeZone?: string;
}

/** What the service settled on one calendar day, all in Kobo. */
export interface SettlementDay {
  /** The day, `YYYY-MM-DD`, in the time zone asked for. */
  readonly date: string;
  /** How many charges settled that day. */
  readonly charges: number;
  /** Their references, in input order: the charges behind the day's credit. */
  readonly references: readonly string[];
  /** What the customers paid, Kobo. */
  readonly amount: number;
  /** The service's fees, Kobo. */
  readonly fees: number;
  /** What you are paid: the bank credit to expect that day, Kobo (`amount - fees` when the fee rule holds). */
  readonly net: number;
}

function isoDay(format: Intl.DateTimeFormat, at: number): string {
  const parts: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(at)) parts[type] = value;
  return `${parts.year}-${parts.month}-${parts.day}`;
}

// A date, a time and an offset: without the offset Date.parse reads the machine's zone (the day
// would change with the server), and it rolls an impossible day over (30 February is 2 March).
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** The instant `text` names, or `undefined` when it names none for certain. */
function instantOf(text: string | undefined): number | undefined {
  const m = TIMESTAMP.exec(text ?? '');
  if (m === null) return undefined;
  const [year, month, date, hours, minutes, seconds] = m.slice(1, 7).map((n = '0') => Number(n));
  const day = new Date(Date.UTC(year!, month! - 1, date));
  if (day.getUTCMonth() !== month! - 1 || hours! > 23 || minutes! > 59 || seconds! > 59) return undefined;
  const at = Date.parse(text!);
  return Number.isNaN(at) ? undefined : at;
}

const isKobo = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function rowIssues(t: Transaction, path: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // The service counts in Naira; another currency's amounts summed as Kobo would be a wrong credit.
  const currency: unknown = t.currency;
  if (typeof currency === 'string' && currency !== 'NGN') {
    issues.push({ path: `${path}.currency`, message: `must be NGN (got ${quoted(currency)})` });
  }
  if (!isKobo(t.amount)) issues.push({ path: `${path}.amount`, message: 'must be whole Kobo' });
  if (!isKobo(t.fee)) issues.push({ path: `${path}.fee`, message: 'must be whole Kobo on a settled charge' });
  if (!isKobo(t.netAmount)) {
    issues.push({ path: `${path}.netAmount`, message: 'must be whole Kobo on a settled charge' });
  }
  if (instantOf(t.settlement?.settledAt) === undefined) {
    issues.push({
      path: `${path}.settlement.settledAt`,
      message: 'must be an ISO-8601 timestamp with its offset (Z or +01:00)',
    });
  }
  return issues;
}

/**
 * Totals the `SETTLED` charges among `transactions` (others skipped) by the calendar day of their
 * `settledAt` in `timeZone`, oldest first: a day's `net` is the bank credit to expect. A charge
 * listed twice counts once. Throws one
 * `ValidationError` before summing for an unknown time zone or option, or a settled charge not in
 * NGN, whose `amount`, `fee` or `netAmount` is not whole Kobo or whose `settledAt` is not a time
 * with its offset, a reference listed again with other amounts or another `settledAt` instant, an
 * entry that is no transaction (`undefined`), or a day whose totals would pass the safe integers.
 *
 * @example
 * ```ts
 * import { summarizeSettlements } from '@wallet/node';
 * import type { Transaction } from '@wallet/node';
 *
 * const paid: Transaction[] = [];
 * for await (const r of wallet.charges.verifyMany(['order_1041', 'order_1042'])) {
 *   if (r.transaction) paid.push(r.transaction);
 * }
 * for (const day of summarizeSettlements(paid)) {
 *   console.log(day.date, `${day.charges} charges: expect a bank credit of ${day.net} Kobo`);
 * }
 * ```
 */
export function summarizeSettlements(
  transactions: Iterable<Transaction>,
  options?: SettlementOptions,
): SettlementDay[] {
  const issues = checkOptions(
    options,
    { timeZone: (v) => (typeof v === 'string' ? undefined : 'must be a string') },
    'options',
    'an option of summarizeSettlements',
  );
  const timeZone = options?.timeZone ?? 'Africa/Lagos';
  // Calendar days in `timeZone`; Intl throws for a zone the runtime does not know.
  const calendarDay = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
  let format: Intl.DateTimeFormat | undefined;
  try {
    if (issues.length === 0) format = new Intl.DateTimeFormat('en-US', { timeZone, ...calendarDay });
  } catch {
    const message = `must be an IANA time zone such as 'Africa/Lagos' (got '${timeZone}')`;
    issues.push({ path: 'options.timeZone', message });
  }
  const days = new Map<
    string,
    { date: string; references: string[]; amount: number; fees: number; net: number }
  >();
  // A charge is one credit however often it is listed (verifyMany over a ledger that repeats it).
  const counted = new Map<string, string>();
  let index = -1;
  for (const t of transactions) {
    index += 1;
    // `results.map((r) => r.transaction)` holds `undefined` for a verify that failed: name it, do
    // not crash on it, and do not skip it (the day's credit would look short for no stated reason).
    const entry: unknown = t;
    if (typeof entry !== 'object' || entry === null) {
      const message = `must be a transaction, not ${describe(entry)}: leave out a verify that found none`;
      issues.push({ path: String(index), message });
      continue;
    }
    if (t.status !== 'SUCCESS' || t.settlement?.status !== 'SETTLED') continue;
    const problems = rowIssues(t, String(index));
    if (problems.length > 0 || format === undefined) {
      issues.push(...problems);
      continue;
    }
    const at = instantOf(t.settlement.settledAt)!;
    // The instant, not its text: `09:00:00Z` and `10:00:00.000+01:00` are one settlement.
    const print = JSON.stringify([t.amount, t.fee, t.netAmount, at]);
    const earlier = counted.get(t.reference);
    if (earlier === print) continue;
    if (earlier !== undefined) {
      const message = `is ${quoted(t.reference)} again, settled with other amounts or time: which one is true?`;
      issues.push({ path: `${index}.reference`, message });
      continue;
    }
    counted.set(t.reference, print);
    const date = isoDay(format, at);
    let day = days.get(date);
    if (day === undefined) days.set(date, (day = { date, references: [], amount: 0, fees: 0, net: 0 }));
    // Past 2^53 a sum is rounded to an even number: a credit a Kobo off, given as exact.
    const sums = [day.amount + t.amount, day.fees + t.fee, day.net + t.netAmount];
    if (!sums.every((sum) => Number.isSafeInteger(sum))) {
      const message = `takes the total of ${date} past ${Number.MAX_SAFE_INTEGER} Kobo, more than a number holds exactly`;
      issues.push({ path: `${index}.amount`, message });
      continue;
    }
    day.references.push(t.reference);
    day.amount += t.amount;
    day.fees += t.fee;
    day.net += t.netAmount;
  }
  if (issues.length > 0) throw new ValidationError('summarizeSettlements', issues, 'Nothing was summed.');
  return [...days.values()]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((day) => ({ ...day, charges: day.references.length }));
}
