/**
 * The expected bank credit per day, summed a batch at a time: a settled charge the SDK refuses to
 * sum (here a fee the answer left out) is left out of its day and says why on its row, and the
 * other charges of its batch are still counted. One bad answer must not make a whole day look
 * short or missing.
 */
import type { Transaction } from '@wallet/node';
import { describe, expect, it } from 'vitest';

import { DayTotals, type Charge } from '../src/settlements/days.js';
import type { Credited } from '../src/settlements/statement.js';

function settled(reference: string, amount: number, fee: number | null, settledAt: string): Transaction {
  const netAmount = fee === null ? null : amount - fee;
  const settlement = { status: 'SETTLED', settledAt };
  return { reference, amount, fee, netAmount, status: 'SUCCESS', settlement } as unknown as Transaction;
}

const row = (line: number, reference: string): Charge => ({
  line,
  reference,
  verdict: 'match',
  date: '',
  amount: null,
  fee: null,
  net: null,
  settledAt: '',
  detail: '',
});

describe('settlement days', () => {
  it('leaves out only the charge the SDK refuses to sum, and says so on its row', () => {
    const days = new DayTotals('Africa/Lagos');
    days.add(settled('order_1', 100_000, 1_500, '2026-11-02T09:00:00Z'), row(2, 'order_1'));
    days.add(settled('order_2', 50_000, null, '2026-11-02T10:00:00Z'), row(3, 'order_2'));
    // 23:30 UTC on the 2nd is already the 3rd in Lagos.
    days.add(settled('order_3', 20_000, 300, '2026-11-02T23:30:00Z'), row(4, 'order_3'));
    const rows = days.flush();

    expect(rows.map((r) => [r.reference, r.date])).toEqual([
      ['order_1', '2026-11-02'],
      ['order_2', ''],
      ['order_3', '2026-11-03'],
    ]);
    expect(rows[1]!.detail).toBe('not summed: the SDK refused its money or settledAt');
    expect(rows[0]!.detail).toBe('');

    const credits = new Map<string, Credited>([
      ['2026-11-02', { amount: 98_500, rows: 1 }],
      ['2026-11-03', { amount: 19_700, rows: 1 }],
    ]);
    const judged = days.judge(credits);
    expect(judged.map(({ date, charges, net, verdict }) => ({ date, charges, net, verdict }))).toEqual([
      { date: '2026-11-02', charges: 1, net: 98_500, verdict: 'match' },
      { date: '2026-11-03', charges: 1, net: 19_700, verdict: 'match' },
    ]);
  });
});

describe('settlement days past the safe integers', () => {
  // The SDK refuses a day whose total passes 2^53 Kobo (rounded, a credit a Kobo off given as exact);
  // the batch it refuses is summed a charge at a time, so the day's total is checked here too.
  it('leaves out a charge that takes its day past the safe integers, and says so on its row', () => {
    const days = new DayTotals('Africa/Lagos');
    days.add(settled('huge', Number.MAX_SAFE_INTEGER, 200_000, '2026-11-02T09:00:00Z'), row(2, 'huge'));
    days.add(settled('small', 2, 0, '2026-11-02T10:00:00Z'), row(3, 'small'));
    const rows = days.flush();
    expect(rows.map((r) => [r.reference, r.date, r.verdict])).toEqual([
      ['huge', '2026-11-02', 'match'],
      ['small', '', 'error'],
    ]);
    expect(rows[1]!.detail).toContain(`past ${Number.MAX_SAFE_INTEGER} Kobo`);
    const [day] = days.judge(new Map());
    expect(day).toMatchObject({ date: '2026-11-02', charges: 1, amount: Number.MAX_SAFE_INTEGER });
  });
});
