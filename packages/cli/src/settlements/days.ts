/** The expected bank credit per day, summed by the SDK's `summarizeSettlements` a batch at a time (flat memory), then judged. */
import { summarizeSettlements, type SettlementDay, type Transaction, type Verdict } from '@wallet/node';

import type { Credited } from './statement.js';

/** A day's verdict: the bank credited what the settled charges give, less, more, nothing, or unasked. */
export type DayVerdict = 'match' | 'short' | 'over' | 'missing_credit' | 'unexpected_credit';

/** What one day's settled charges add up to (money in Kobo). */
interface Expected {
  charges: number;
  amount: number;
  fees: number;
  net: number;
}

/** A verified ledger row for the settlement report: money in Kobo, `date` '' when counted in no day. */
export interface Charge {
  line: number;
  reference: string;
  verdict: Verdict;
  date: string;
  amount: number | null;
  fee: number | null;
  net: number | null;
  settledAt: string;
  detail: string;
}

/** One day, judged: `credited` from the statement (0 when nothing), `difference` is `credited - net`; `unverified` charges and `uncounted` statement rows may belong to it too. */
export interface Day extends Expected {
  date: string;
  verdict: DayVerdict;
  credited: number;
  difference: number;
  unverified?: number;
  uncounted?: number;
}

/** Marks each day with what may belong to it but is in no sum: charges that could not be verified, and statement rows that could not be counted on it (`''`: on a day unknown, so on any). */
export function withDoubts(days: Day[], unverified: number, uncounted: ReadonlyMap<string, number>): Day[] {
  const undated = uncounted.get('') ?? 0;
  return days.map((d) => {
    const rows = (uncounted.get(d.date) ?? 0) + undated;
    return { ...d, ...(unverified > 0 ? { unverified } : {}), ...(rows > 0 ? { uncounted: rows } : {}) };
  });
}

/** Why a day's verdict is not confirmed, or '' when nothing is in doubt. */
export function doubtOf(day: Day): string {
  const why: string[] = [];
  if (day.unverified !== undefined) why.push(`${day.unverified} charge(s) that could not be verified`);
  if (day.uncounted !== undefined) why.push(`${day.uncounted} statement row(s) that could not be counted`);
  return why.length === 0 ? '' : `judged without ${why.join(' and ')}: any of them may belong to this day`;
}

// Summing one charge at a time costs an Intl.DateTimeFormat each (about 150 µs).
const BATCH = 512;

/** Sums settled charges per day, a batch at a time. */
export class DayTotals {
  readonly #timeZone: string;
  readonly #days = new Map<string, Expected>();
  #batch: [Transaction, Charge][] = [];

  constructor(timeZone: string) {
    this.#timeZone = timeZone;
  }

  /** Adds a settled charge; once its batch is summed, returns the batch's charges with their day. */
  add(t: Transaction, charge: Charge): Charge[] {
    this.#batch.push([t, charge]);
    return this.#batch.length >= BATCH ? this.flush() : [];
  }

  /** Sums the batch; a charge the SDK refuses (money not whole Kobo, `settledAt` not a time) has no day and is an `error`, the others still count. */
  flush(): Charge[] {
    const batch = this.#batch.splice(0);
    const sum = (ts: Transaction[]): SettlementDay[] => {
      try {
        return summarizeSettlements(ts, { timeZone: this.#timeZone });
      } catch {
        return ts.length > 1 ? ts.flatMap((t) => sum([t])) : [];
      }
    };
    const days = sum(batch.map(([t]) => t));
    const dayOf = new Map<string, string>();
    const past = new Map<string, string>();
    for (const day of days) {
      const total = this.#days.get(day.date) ?? { charges: 0, amount: 0, fees: 0, net: 0 };
      // The SDK refuses a day past 2^53 Kobo, but a batch it refuses is summed a charge at a time,
      // and batches add up here: a rounded total would be given as exact.
      if (
        ![total.amount + day.amount, total.fees + day.fees, total.net + day.net].every(Number.isSafeInteger)
      ) {
        for (const reference of day.references) past.set(reference, day.date);
        continue;
      }
      total.charges += day.charges;
      total.amount += day.amount;
      total.fees += day.fees;
      total.net += day.net;
      this.#days.set(day.date, total);
      for (const reference of day.references) dayOf.set(reference, day.date);
    }
    return batch.map(([, c]) => {
      const date = dayOf.get(c.reference);
      if (date !== undefined) return { ...c, date };
      // Settled on no day we can name: its credit is unaccounted for, a problem, never left out quietly.
      const over = past.get(c.reference);
      const why =
        over === undefined
          ? 'not summed: the SDK refused its money or settledAt'
          : `not summed: it takes the total of ${over} past ${Number.MAX_SAFE_INTEGER} Kobo, more than a number holds exactly`;
      const detail = c.detail === '' ? why : `${c.detail}; ${why}`;
      return { ...c, date: '', verdict: 'error', detail };
    });
  }

  /** Each day of the settlements or of the statement, oldest first, judged. */
  judge(credits: ReadonlyMap<string, Credited>): Day[] {
    const dates = [...new Set([...this.#days.keys(), ...credits.keys()])].sort();
    return dates.map((date) => {
      const expected = this.#days.get(date) ?? { charges: 0, amount: 0, fees: 0, net: 0 };
      const credited = credits.get(date)?.amount ?? 0;
      const verdict: DayVerdict =
        expected.charges === 0
          ? 'unexpected_credit'
          : !credits.has(date)
            ? 'missing_credit'
            : credited === expected.net
              ? 'match'
              : credited < expected.net
                ? 'short'
                : 'over';
      return { date, ...expected, credited, difference: credited - expected.net, verdict };
    });
  }
}
