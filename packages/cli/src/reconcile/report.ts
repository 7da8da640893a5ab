/**
 * The report: one row per ledger row, in ledger order, as CSV or JSON lines, written whole rows at
 * a time. Every CSV cell a spreadsheet would run as a formula is made inert (a leading `'`), so a
 * hostile reference or an answer from the service cannot run in the finance team's spreadsheet.
 */
import { createWriteStream, type WriteStream } from 'node:fs';

import { stringify } from 'csv-stringify/sync';
import type { ReconcileLine } from '@wallet/node';

import { inertCell } from '../output.js';
import type { CsvRow } from './ledger.js';

/** The report's format: CSV, or one JSON object per line. */
export type ReportFormat = 'csv' | 'jsonl';

/** The report's columns, in order. */
export const COLUMNS = [
  'line',
  'reference',
  'verdict',
  'expected_amount',
  'expected_status',
  'actual_amount',
  'actual_status',
  'fee',
  'net_amount',
  'detail',
] as const;

/** One report row, each cell as it is written. */
export type ReportRow = Record<(typeof COLUMNS)[number], string | number>;

/**
 * The ledger's side of a report row, as the report holds it (what `--resume` compares to know the
 * report is this ledger's).
 */
export function ledgerCells(row: CsvRow, format: ReportFormat): [string, string, string, string] {
  const bad = row.problem !== undefined;
  return [
    String(row.line),
    format === 'csv' ? inertCell(row.reference) : row.reference,
    bad || Number.isNaN(row.amount) ? '' : String(row.amount),
    bad ? '' : row.status,
  ];
}

/** A 32-bit fingerprint of a row's ledger side (FNV-1a over its cells). */
export function fingerprint(cells: readonly string[]): number {
  let h = 0x811c9dc5;
  for (const cell of cells) {
    for (let i = 0; i < cell.length; i++) h = Math.imul(h ^ cell.charCodeAt(i), 16777619);
    h = Math.imul(h ^ 0x1f, 16777619);
  }
  return h >>> 0;
}

/** One reconciled line as a report row (the CSV reader's problem wins over the SDK's wording). */
export function toReportRow(line: ReconcileLine<CsvRow>, note = ''): ReportRow {
  const { expected, actual } = line;
  const bad = expected.problem !== undefined;
  const detail = expected.problem ?? line.detail;
  return {
    line: expected.line,
    reference: expected.reference,
    verdict: line.verdict,
    expected_amount: bad || Number.isNaN(expected.amount) ? '' : expected.amount,
    expected_status: bad ? '' : expected.status,
    actual_amount: actual?.amount ?? '',
    actual_status: actual?.status ?? '',
    fee: actual?.fee ?? '',
    net_amount: actual?.netAmount ?? '',
    detail: note === '' ? detail : detail === '' ? note : `${detail}; ${note}`,
  };
}

/** The format a report file's name implies: `.jsonl` / `.ndjson` are JSON lines, the rest CSV. */
export function formatOf(file: string): ReportFormat {
  return /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'csv';
}

/** A row as its line in the report. */
export function rowText(row: ReportRow, format: ReportFormat): string {
  // Every CSV cell, the service's answers included, is made inert for spreadsheets.
  return format === 'csv'
    ? stringify([COLUMNS.map((c) => inertCell(String(row[c])))])
    : `${JSON.stringify(row)}\n`;
}

/** Writes `text`; resolves when the stream can take more (backpressure, so memory stays flat). */
export async function writeText(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
}

/** Ends `stream`; resolves once everything is on disk. */
export function endStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(resolve);
  });
}

/** Writes report rows; `close()` resolves once everything is on disk. */
export class ReportWriter {
  readonly #stream: WriteStream;
  readonly #format: ReportFormat;
  /** @param append - carry on a report (no header); else a new file with its header. */
  constructor(file: string, format: ReportFormat, append: boolean) {
    this.#format = format;
    this.#stream = createWriteStream(file, { flags: append ? 'a' : 'w' });
    if (!append && format === 'csv') this.#stream.write(stringify([[...COLUMNS]]));
  }
  /** Writes one row; resolves when the stream can take more (backpressure, so memory stays flat). */
  write(row: ReportRow): Promise<void> {
    return this.raw(rowText(row, this.#format));
  }
  /** Writes a row's text as is (a row copied from an earlier report). */
  raw(text: string): Promise<void> {
    return writeText(this.#stream, text);
  }
  close(): Promise<void> {
    return endStream(this.#stream);
  }
}
