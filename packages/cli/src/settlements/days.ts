/**
 * The expected bank credit per day, summed by the SDK's `summarizeSettlements` (its day rule, its
 * checks) a batch of charges at a time, so memory holds one batch and the per-day totals, never
 * every charge: the references behind a day are read back from the run's charge file, not kept.
 * Then each day is judged against the statement.
 */
import { summarizeSettlements, type SettlementDay, type Transaction } from '@wallet/node';

import type { Credited } from './statement.js';

/** A day's verdict: the bank credited what the settled charges give, less, more, nothing, or unasked. */
export type DayVerdict = 'match' | 'short' | 'over' | 'missing_credit' | 'unexpected_credit';

/** Every day verdict, in the order summaries list them. */
export const DAY_VERDICTS: readonly DayVerdict[] = [
  'match',
  'short',
  'over',
  'missing_credit',
  'unexpected_credit',
];

/** What one day's settled charges add up to, Kobo. */
export interface Expected {
  charges: number;
  amount: number;
  fees: number;
  net: number;
}

/** One day, judged. */
export interface Day extends Expected {
  date: string;
  verdict: DayVerdict;
  /** What the statement credited that day, Kobo (0 when nothing). */
  credited: number;
  /** `credited - net`: negative when short. */
  difference: number;
}

const BATCH = 512;

/** Sums settled charges per day, a batch at a time. */
export class DayTotals {
  readonly #timeZone: string;
  readonly #days = new Map<string, Expected>();
  #batch: Transaction[] = [];

  constructor(timeZone: string) {
    this.#timeZone = timeZone;
  }

  /** Adds settled charges; returns each one's day once its batch is summed (else undefined yet). */
  add(t: Transaction): Map<string, string> | undefined {
    this.#batch.push(t);
    return this.#batch.length >= BATCH ? this.flush() : undefined;
  }

  /**
   * Sums the batch: the day of each reference in it. A charge the SDK refuses to sum (its money
   * not whole Kobo, `settledAt` not a time) is left out, and its reference has no day.
   */
  flush(): Map<string, string> {
    const batch = this.#batch.splice(0);
    let days: SettlementDay[];
    try {
      days = summarizeSettlements(batch, { timeZone: this.#timeZone });
    } catch {
      // One at a time, to leave out only the charges the SDK refuses.
      days = batch.flatMap((t) => {
        try {
          return summarizeSettlements([t], { timeZone: this.#timeZone });
        } catch {
          return [];
        }
      });
    }
    const dayOf = new Map<string, string>();
    for (const day of days) {
      const sum = this.#days.get(day.date) ?? { charges: 0, amount: 0, fees: 0, net: 0 };
      sum.charges += day.charges;
      sum.amount += day.amount;
      sum.fees += day.fees;
      sum.net += day.net;
      this.#days.set(day.date, sum);
      for (const reference of day.references) dayOf.set(reference, day.date);
    }
    return dayOf;
  }

  /** Each day of the settlements or of the statement, oldest first, judged. */
  judge(credits: ReadonlyMap<string, Credited>): Day[] {
    const dates = [...new Set([...this.#days.keys(), ...credits.keys()])].sort();
    return dates.map((date) => {
      const expected = this.#days.get(date) ?? { charges: 0, amount: 0, fees: 0, net: 0 };
      const credited = credits.get(date)?.amount ?? 0;
      return {
        date,
        ...expected,
        credited,
        difference: credited - expected.net,
        verdict: verdictOf(expected, credits.has(date), credited),
      };
    });
  }
}

function verdictOf(expected: Expected, creditedAtAll: boolean, credited: number): DayVerdict {
  if (expected.charges === 0) return 'unexpected_credit';
  if (!creditedAtAll) return 'missing_credit';
  return credited === expected.net ? 'match' : credited < expected.net ? 'short' : 'over';
}
