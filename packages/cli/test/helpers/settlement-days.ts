/**
 * Paid charges spread over Lagos days, with what the bank should credit for each day worked out
 * here on its own (not by the code under test): the sandbox settles a charge at 10:00 Lagos on
 * the day after the Lagos day it was paid, and Lagos is UTC+1 all year.
 */
import { estimateFee } from '@wallet/node';
import type { SandboxSeedCharge } from '@wallet/node/testing';

const HOUR = 3_600_000;

/** A paid charge and the Lagos day its settlement is credited. */
export interface PaidCharge extends SandboxSeedCharge {
  paidAt: string;
  /** `YYYY-MM-DD`: the Lagos day after the Lagos day of payment. */
  settledOn: string;
  net: number;
}

/** The settlement day of a charge paid at `paidAt` (UTC+1, then the next day). */
export function settledOn(paidAt: string): string {
  const lagos = new Date(Date.parse(paidAt) + HOUR);
  lagos.setUTCDate(lagos.getUTCDate() + 1);
  return lagos.toISOString().slice(0, 10);
}

/**
 * `perDay` charges paid on each of `days` Lagos days from `firstDay`, every hour or so, plus the
 * two either side of Lagos midnight after the first day: `late` at 23:30 Lagos (22:30 UTC) and
 * `early` at 00:30 Lagos the next day (23:30 UTC, still the first day in UTC).
 */
export function paidCharges(firstDay: string, days: number, perDay: number): PaidCharge[] {
  const charges: PaidCharge[] = [];
  const add = (reference: string, paidAt: string, amount: number): void => {
    const net = amount - estimateFee(amount);
    charges.push({ reference, amount, status: 'SUCCESS', paidAt, settledOn: settledOn(paidAt), net });
  };
  const start = Date.parse(`${firstDay}T00:00:00+01:00`);
  for (let d = 0; d < days; d++)
    for (let i = 0; i < perDay; i++) {
      // Between 01:00 and 22:00 Lagos, amounts from ₦10 to about ₦100,000.
      const at = start + d * 24 * HOUR + HOUR + Math.floor((i * 21 * HOUR) / perDay);
      add(`ord_${d}_${i}`, new Date(at).toISOString(), 1_000 + ((i * 7_919 + d * 104_729) % 10_000_000));
    }
  add('ord_late', new Date(start + 23.5 * HOUR).toISOString(), 1_234_567);
  add('ord_early', new Date(start + 24.5 * HOUR).toISOString(), 7_654_321);
  return charges;
}

/** The bank credit to expect per settlement day, Kobo. */
export function expectedByDay(charges: readonly PaidCharge[]): Map<string, number> {
  const days = new Map<string, number>();
  for (const c of charges) days.set(c.settledOn, (days.get(c.settledOn) ?? 0) + c.net);
  return days;
}

/** The merchant's ledger: every charge marked paid, amounts in Kobo. */
export function ledgerCsv(charges: readonly PaidCharge[]): string {
  return `reference,amount,status\n${charges.map((c) => `${c.reference},${c.amount},paid`).join('\n')}\n`;
}

/** Kobo as the bank prints Naira: `₦1,234.50`. */
export function nairaText(kobo: number): string {
  const whole = Math.floor(kobo / 100).toLocaleString('en');
  return `₦${whole}.${String(kobo % 100).padStart(2, '0')}`;
}

/** A statement row: date, narration, debit, credit (one credit or one debit per row). */
export function statementCsv(rows: readonly (readonly [string, string, string, string])[]): string {
  const quote = (cell: string): string => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return `date,narration,debit,credit\n${rows.map((r) => r.map(quote).join(',')).join('\n')}\n`;
}
