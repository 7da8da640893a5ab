// `charges.reconcile`: `verifyMany` over a ledger plus the verdict rules; a malformed row is refused
// on its own row, so one bad line never ends a nightly run.
import { quoted } from '../internal/values.js';
import { ValidationError, type ValidationIssue, type WalletError } from '../errors/base.js';
import { isApiError } from '../errors/call.js';
import { estimateFee } from '../money.js';
import type { PaidTransaction, Transaction } from '../types.js';
import {
  checkInput,
  orderedPool,
  PENDING,
  settleRun,
  VERIFY_MANY_RULES,
  verifyWithRetries,
  type AnyIterable,
  type VerifyFn,
  type VerifyManyOptions,
  type VerifyResult,
} from './verify-many.js';

/** What the merchant's own books say of an order. */
export type LedgerStatus = 'paid' | 'pending' | 'failed';

/** One row of the merchant's ledger. Extra fields (a line number, an order id) are kept on `expected`. */
export interface LedgerRow {
  /** The reference the charge was made with. */
  reference: string;
  /** The amount the ledger expects, in Kobo. */
  amount: number;
  /** The merchant's view of the order. */
  status: LedgerStatus;
}

/** Every verdict, in the order reports list them. */
export const VERDICTS = [
  'match',
  'paid_not_recorded',
  'recorded_not_paid',
  'amount_mismatch',
  'fee_mismatch',
  'still_pending',
  'unknown_reference',
  'error',
] as const;

/**
 * What a row's comparison found, checked in this order: `unknown_reference` (the service's 404),
 * `error` (could not verify, or the row itself is malformed), `amount_mismatch`, `still_pending`,
 * `paid_not_recorded` (a missed webhook: fulfil it), `recorded_not_paid`, `fee_mismatch`, `match`.
 */
export type Verdict = (typeof VERDICTS)[number];

/** One reconciled row. */
export interface ReconcileLine<Row extends LedgerRow = LedgerRow> {
  /** The row's reference. */
  readonly reference: string;
  /** What the comparison found. */
  readonly verdict: Verdict;
  /** The ledger row as given. */
  readonly expected: Row;
  /** What the service holds, when it answered with a transaction. */
  readonly actual: Transaction | undefined;
  /** Why the row could not be verified (`error`), or the 404 (`unknown_reference`). */
  readonly error: WalletError | undefined;
  /** One sentence for people: what disagrees. */
  readonly detail: string;
}

/** Counts so far, as {@link ReconcileOptions.onProgress} receives them. */
export interface ReconcileProgress {
  /** Rows reconciled so far. */
  readonly done: number;
  /** Rows in all, when known (an array ledger, or the `total` option). */
  readonly total: number | undefined;
  /** Rows so far by verdict. */
  readonly verdicts: Readonly<Record<Verdict, number>>;
}

/** Options of {@link Charges.reconcile}. */
export interface ReconcileOptions extends VerifyManyOptions {
  /**
   * Called after each row, in input order, with the counts so far. Keep it quick: a progress bar
   * should redraw on a timer, not on every call.
   * @default undefined
   */
  onProgress?: (progress: ReconcileProgress) => void;
  /**
   * The number of rows, for `onProgress` when the ledger is a stream (an array's length is used).
   * @default undefined
   */
  total?: number;
}

const STATUSES: readonly LedgerStatus[] = ['paid', 'pending', 'failed'];
/** The statuses the spec lists: a verdict is a statement about money, given on these only. */
const KNOWN: ReadonlySet<string> = new Set(['SUCCESS', 'FAILED', ...PENDING]);

const RULES = {
  ...VERIFY_MANY_RULES,
  onProgress: (v: unknown) => (typeof v === 'function' ? undefined : 'must be a function'),
  total: (v: unknown) =>
    typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? undefined : 'must be a whole number of rows',
};

// The problems of one ledger row, reported on its own line instead of sent.
function rowIssues(row: unknown): ValidationIssue[] {
  if (typeof row !== 'object' || row === null) return [{ path: 'row', message: 'must be an object' }];
  const { reference, amount, status } = row as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (typeof reference !== 'string' || reference.trim() === '') {
    issues.push({ path: 'reference', message: 'must be a non-empty string' });
  }
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
    issues.push({ path: 'amount', message: 'must be a positive whole number of Kobo' });
  }
  if (!STATUSES.includes(status as LedgerStatus)) {
    issues.push({ path: 'status', message: `must be one of ${STATUSES.join(', ')}` });
  }
  return issues;
}

// Verify refuses a SUCCESS answer without fee and netAmount (schemas), so both are here.
function feeProblem({ amount, fee, netAmount }: PaidTransaction): string | undefined {
  const rule = estimateFee(amount);
  if (fee !== rule) return `fee ${fee} Kobo, the fee rule gives ${rule}`;
  if (netAmount !== amount - fee) return `netAmount ${netAmount} Kobo, amount - fee is ${amount - fee}`;
  return undefined;
}

// Why an answer cannot carry a verdict (another reference or currency, a status the spec does not list).
function untrustedAnswer(row: LedgerRow, tx: Transaction): string | undefined {
  if (tx.reference !== row.reference)
    return `the answer is about ${quoted(tx.reference)}, not this reference: no verdict`;
  if (tx.currency !== 'NGN') return `the answer is in ${quoted(tx.currency)}, not NGN: no verdict`;
  if (!KNOWN.has(tx.status))
    return `status ${quoted(tx.status)} is not one the spec lists (${[...KNOWN].join(', ')}): no verdict`;
  return undefined;
}

/** The verdict of one row, from the ledger's view and the service's answer. */
function judge(row: LedgerRow, result: VerifyResult): { verdict: Verdict; detail: string } {
  if (result.error !== undefined) {
    // Only the service's own 404: a front server's (`endpoint_not_found`, a wrong base URL) says
    // nothing about the reference.
    if (isApiError(result.error) && result.error.code === 'not_found') {
      return { verdict: 'unknown_reference', detail: 'the service has no charge with this reference' };
    }
    return { verdict: 'error', detail: result.error.message };
  }
  const tx = result.transaction;
  const untrusted = untrustedAnswer(row, tx);
  if (untrusted !== undefined) return { verdict: 'error', detail: untrusted };
  if (tx.amount !== row.amount) {
    // The finance team's first mistake: every row of a ledger kept in Naira is 100 times short.
    const naira =
      tx.amount === row.amount * 100
        ? ': 100 times the ledger, so the ledger may be in Naira (amounts are Kobo; toKobo() converts)'
        : '';
    return {
      verdict: 'amount_mismatch',
      detail: `ledger ${row.amount} Kobo, service ${tx.amount} Kobo${naira}`,
    };
  }
  if (tx.status === 'SUCCESS') {
    if (row.status !== 'paid')
      return { verdict: 'paid_not_recorded', detail: `ledger ${row.status}, service SUCCESS` };
    const fee = feeProblem(tx);
    return fee === undefined ? { verdict: 'match', detail: '' } : { verdict: 'fee_mismatch', detail: fee };
  }
  // Pending or FAILED (an expired prompt ends FAILED too): no money arrived yet.
  if (row.status === 'paid')
    return { verdict: 'recorded_not_paid', detail: `ledger paid, service ${tx.status}` };
  if (PENDING.has(tx.status)) return { verdict: 'still_pending', detail: `service ${tx.status}` };
  return {
    verdict: 'match',
    detail: row.status === 'pending' ? `service ${tx.status}: close the order` : '',
  };
}

/** Yields one {@link ReconcileLine} per ledger row, in input order. @internal */
export async function* reconcile<Row extends LedgerRow>(
  verify: VerifyFn,
  ledger: AnyIterable<Row>,
  options?: ReconcileOptions,
): AsyncGenerator<ReconcileLine<Row>, void, undefined> {
  const run = settleRun(options, RULES, 'reconcile');
  checkInput(ledger, 'reconcile ledger', 'a list of ledger rows (an array, a stream)');
  const total = options?.total ?? (Array.isArray(ledger) ? ledger.length : undefined);
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  const onProgress = options?.onProgress;
  let done = 0;

  const task = async (row: Row): Promise<ReconcileLine<Row>> => {
    const issues = rowIssues(row);
    const reference = typeof row?.reference === 'string' ? row.reference : String(row?.reference);
    if (issues.length > 0) {
      const error = new ValidationError(
        `ledger row ${quoted(reference)}`,
        issues,
        'Nothing was sent for it.',
      );
      return { reference, verdict: 'error', expected: row, actual: undefined, error, detail: error.message };
    }
    const result = await verifyWithRetries(verify, row.reference, run);
    const { verdict, detail } = judge(row, result);
    return { reference, verdict, expected: row, actual: result.transaction, error: result.error, detail };
  };

  for await (const line of orderedPool(ledger, task, run)) {
    counts[line.verdict]++;
    done++;
    if (onProgress) onProgress({ done, total, verdicts: { ...counts } });
    yield line;
  }
}
