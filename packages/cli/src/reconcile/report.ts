/** The report: a row per ledger row, in order, as CSV (formula cells made inert) or JSON lines. */
import { createWriteStream, type WriteStream } from 'node:fs';

import { stringify } from 'csv-stringify/sync';
import type { ReconcileLine } from '@wallet/node';

import { inertCell } from '../output.js';
import type { CsvRow } from './ledger.js';

export type ReportFormat = 'csv' | 'jsonl';

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

/** The ledger's side of a report row as the report holds it (what `--resume` compares). */
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

/** A line's detail (the CSV reader's problem wins over the SDK's wording), with `note` added. */
export function detailOf(line: ReconcileLine<CsvRow>, note: string): string {
  const detail = line.expected.problem ?? line.detail;
  return note === '' ? detail : detail === '' ? note : `${detail}; ${note}`;
}

/** One reconciled line as its text in the report. */
export function rowText(line: ReconcileLine<CsvRow>, note: string, format: ReportFormat): string {
  const { expected, actual } = line;
  const bad = expected.problem !== undefined;
  const row: ReportRow = {
    line: expected.line,
    reference: expected.reference,
    verdict: line.verdict,
    expected_amount: bad || Number.isNaN(expected.amount) ? '' : expected.amount,
    expected_status: bad ? '' : expected.status,
    actual_amount: actual?.amount ?? '',
    actual_status: actual?.status ?? '',
    fee: actual?.fee ?? '',
    net_amount: actual?.netAmount ?? '',
    detail: detailOf(line, note),
  };
  return format === 'csv'
    ? stringify([COLUMNS.map((c) => inertCell(String(row[c])))])
    : `${JSON.stringify(row)}\n`;
}

/** The format a report file's name implies: `.jsonl` / `.ndjson` are JSON lines, the rest CSV. */
export function formatOf(file: string): ReportFormat {
  return /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'csv';
}

/** Writes text with backpressure (memory stays flat); `close()` resolves once all is on disk. */
export class FileWriter {
  readonly #stream: WriteStream;
  #failed: Error | undefined;
  constructor(file: string, header = '', append = false) {
    this.#stream = createWriteStream(file, { flags: append ? 'a' : 'w' });
    // A stream error (a full disk, no permission) ends the run with its reason, never as a crash.
    this.#stream.on('error', (error) => {
      this.#failed ??= new Error(`cannot write ${file}: ${error.message}`, { cause: error });
    });
    if (header !== '') this.#stream.write(header);
  }
  async write(text: string): Promise<void> {
    if (this.#failed !== undefined) throw this.#failed;
    if (!this.#stream.write(text))
      await new Promise<void>((resolve, reject) => {
        const done = (): void => {
          this.#stream.off('drain', done).off('close', done);
          if (this.#failed === undefined) resolve();
          else reject(this.#failed);
        };
        this.#stream.once('drain', done).once('close', done);
      });
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (): void => (this.#failed === undefined ? resolve() : reject(this.#failed));
      if (this.#failed !== undefined || this.#stream.closed) {
        this.#stream.destroy();
        reject(this.#failed ?? new Error('the report stream was closed'));
        return;
      }
      // A failed write destroys the stream a moment before its error comes (while the file closes):
      // waiting for 'close', which follows the error, reports the disk's reason, never a vague one.
      this.#stream.once('close', settle);
      if (!this.#stream.destroyed) this.#stream.end();
    });
  }
  destroy(): void {
    this.#stream.destroy();
  }
}

/** The report's writer: a new file starts with the CSV header; `append` carries one on. */
export function reportWriter(file: string, format: ReportFormat, append: boolean): FileWriter {
  return new FileWriter(file, append || format === 'jsonl' ? '' : stringify([[...COLUMNS]]), append);
}
