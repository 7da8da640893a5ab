/**
 * The report: one row per ledger row, in ledger order, as CSV or JSON lines. It is written as rows
 * complete, so an interrupted run leaves a report whose complete lines are exactly the first rows
 * of the ledger; `--resume` trims a torn last line, counts the rows, and carries on after them.
 */
import { createWriteStream, existsSync, readFileSync, truncateSync, type WriteStream } from 'node:fs';

import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ReconcileLine, Verdict } from '@wallet/node';

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

type ReportRow = Record<(typeof COLUMNS)[number], string | number>;

/** One reconciled line as a report row (the CSV reader's problem wins over the SDK's wording). */
export function toReportRow(line: ReconcileLine<CsvRow>): ReportRow {
  const { expected, actual } = line;
  const bad = expected.problem !== undefined;
  return {
    line: expected.line,
    reference: line.reference,
    verdict: line.verdict,
    expected_amount: bad || Number.isNaN(expected.amount) ? '' : expected.amount,
    expected_status: bad ? '' : expected.status,
    actual_amount: actual?.amount ?? '',
    actual_status: actual?.status ?? '',
    fee: actual?.fee ?? '',
    net_amount: actual?.netAmount ?? '',
    detail: expected.problem ?? line.detail,
  };
}

/** The format a report file's name implies: `.jsonl` / `.ndjson` are JSON lines, the rest CSV. */
export function formatOf(file: string): ReportFormat {
  return /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'csv';
}

/** What an earlier run left: its rows (to count and summarise) and the line of its last one. */
export interface EarlierReport {
  rows: number;
  lastLine: number;
  lastReference: string;
  verdicts: Partial<Record<Verdict, number>>;
}

/**
 * Reads a report left by an interrupted run, first cutting off a torn last line (a write the
 * interruption cut short), so new rows append cleanly.
 */
export function readEarlier(file: string, format: ReportFormat): EarlierReport | undefined {
  if (!existsSync(file)) return undefined;
  let text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) {
    truncateSync(file, Buffer.byteLength(text.slice(0, end)));
    text = text.slice(0, end);
  }
  const records: Record<string, string | number>[] =
    format === 'csv'
      ? parse<Record<string, string>>(text, { columns: true, bom: true, skip_empty_lines: true })
      : text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as Record<string, string | number>);
  const verdicts: Partial<Record<Verdict, number>> = {};
  for (const r of records) {
    const v = String(r.verdict) as Verdict;
    verdicts[v] = (verdicts[v] ?? 0) + 1;
  }
  const last = records.at(-1);
  return {
    rows: records.length,
    lastLine: Number(last?.line ?? 0),
    lastReference: String(last?.reference ?? ''),
    verdicts,
  };
}

/** Appends report rows; `close()` resolves once everything is on disk. */
export class ReportWriter {
  readonly #stream: WriteStream;
  readonly #format: ReportFormat;
  constructor(file: string, format: ReportFormat, append: boolean) {
    this.#format = format;
    const fresh = !append || !existsSync(file) || readFileSync(file).length === 0;
    this.#stream = createWriteStream(file, { flags: fresh ? 'w' : 'a' });
    if (fresh && format === 'csv') this.#stream.write(stringify([[...COLUMNS]]));
  }
  /** Writes one row; resolves when the stream can take more (backpressure, so memory stays flat). */
  async write(row: ReportRow): Promise<void> {
    const text =
      this.#format === 'csv' ? stringify([COLUMNS.map((c) => row[c])]) : `${JSON.stringify(row)}\n`;
    if (!this.#stream.write(text))
      await new Promise<void>((resolve) => this.#stream.once('drain', () => resolve()));
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#stream.once('error', reject);
      this.#stream.end(resolve);
    });
  }
}
