/**
 * The settlement report for the finance team's spreadsheet: one row per day (`kind` day), then one
 * row per charge behind a day that does not match and per charge with a problem of its own
 * (`kind` charge), amounts in Naira with two decimals. Text from the ledger or the service is made
 * inert for spreadsheets (`inertCell`); the numbers are ours, so a shortfall stays a negative
 * number the spreadsheet can add up.
 */
import { createWriteStream, type WriteStream } from 'node:fs';

import { stringify } from 'csv-stringify/sync';

import { inertCell } from '../output.js';
import { endStream, writeText } from '../reconcile/report.js';
import type { Charge } from './charges.js';
import type { Day } from './days.js';

/** The report's columns, in order. */
export const SETTLEMENT_COLUMNS = [
  'kind',
  'date',
  'day_verdict',
  'expected_ngn',
  'credited_ngn',
  'difference_ngn',
  'charges',
  'line',
  'reference',
  'charge_verdict',
  'amount_ngn',
  'fee_ngn',
  'net_ngn',
  'settled_at',
  'detail',
] as const;

/** Kobo as Naira with two decimals (`-4500` is `-45.00`), exactly: no floating point. */
export function naira(kobo: number | null): string {
  if (kobo === null) return '';
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

type Cells = Partial<Record<(typeof SETTLEMENT_COLUMNS)[number], string>>;

/** Writes the report, whole rows at a time. */
export class SettlementReport {
  readonly #stream: WriteStream;

  constructor(file: string) {
    this.#stream = createWriteStream(file);
    this.#stream.write(stringify([[...SETTLEMENT_COLUMNS]]));
  }

  /** A day's row. */
  day(day: Day): Promise<void> {
    return this.#row({
      kind: 'day',
      date: day.date,
      day_verdict: day.verdict,
      expected_ngn: naira(day.net),
      credited_ngn: naira(day.credited),
      difference_ngn: naira(day.difference),
      charges: String(day.charges),
    });
  }

  /** A charge's row, with the verdict of its day ('' when it is in none). */
  charge(charge: Charge, dayVerdict: string): Promise<void> {
    return this.#row({
      kind: 'charge',
      date: charge.date,
      day_verdict: dayVerdict,
      line: String(charge.line),
      reference: inertCell(charge.reference),
      charge_verdict: charge.verdict,
      amount_ngn: naira(charge.amount),
      fee_ngn: naira(charge.fee),
      net_ngn: naira(charge.net),
      settled_at: inertCell(charge.settledAt),
      detail: inertCell(charge.detail),
    });
  }

  #row(cells: Cells): Promise<void> {
    return writeText(this.#stream, stringify([SETTLEMENT_COLUMNS.map((c) => cells[c] ?? '')]));
  }

  /** Resolves once everything is on disk. */
  close(): Promise<void> {
    return endStream(this.#stream);
  }
}
