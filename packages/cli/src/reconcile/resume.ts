/**
 * `--resume`: carry on the report of the same ledger only, and verify again the rows that ended in
 * `error`. The ledger's rows are compared with the report's by fingerprint first (refused, exit 2,
 * with the line where they part). A report with no `error` row is carried on in place; one with
 * `error` rows is rewritten beside it and renamed over it, its other rows copied byte for byte,
 * so an interruption of the resumed run loses nothing.
 */
import { renameSync } from 'node:fs';

import type { ReconcileLine, Verdict } from '@wallet/node';

import { UsageError } from '../output.js';
import type { EarlierReport } from './earlier.js';
import { reportRecords } from './earlier.js';
import type { CsvRow } from './ledger.js';
import { fingerprint, ledgerCells, ReportWriter, type ReportFormat } from './report.js';

/** Compares each ledger row with the report's row at the same place; call `done()` after the last. */
export function sameLedger(
  earlier: EarlierReport,
  report: string,
  format: ReportFormat,
): { row: (row: CsvRow, index: number) => void; done: (rows: number) => void } {
  let parted: { line: number; index: number } | undefined;
  return {
    row(row, index) {
      if (parted !== undefined || index >= earlier.rows) return;
      if (fingerprint(ledgerCells(row, format)) !== earlier.prints[index]) parted = { line: row.line, index };
    },
    done(rows) {
      const why =
        parted?.index === 0
          ? `its first row is not the report's first row: ${report} was made from another ledger`
          : parted !== undefined
            ? `the ledger changed at line ${parted.line}, above the ${earlier.rows.toLocaleString('en')} rows the report already holds`
            : rows < earlier.rows
              ? `the report holds ${earlier.rows.toLocaleString('en')} rows, the ledger only ${rows.toLocaleString('en')}`
              : undefined;
      if (why !== undefined)
        throw new UsageError(
          `Not resumed: ${why}. Nothing was written. Run without --resume to start over, or give --out another file.`,
        );
    },
  };
}

/** Counts of written rows by verdict. */
export type Counts = Record<Verdict, number>;

/**
 * Rewrites the report: the ledger's rows whose earlier row is not `error` are copied from the
 * report, the others verified by `verify`. Resolves when the report is whole again (also after
 * an interruption or a refused key: the rows not reached are copied as they were).
 */
export async function rewriteReport(
  report: string,
  format: ReportFormat,
  earlier: EarlierReport,
  rows: AsyncIterable<CsvRow>,
  verify: (rows: AsyncIterable<CsvRow>) => AsyncIterable<ReconcileLine<CsvRow>>,
  each: (line: ReconcileLine<CsvRow>) => string,
  counts: Counts,
): Promise<void> {
  const temp = `${report}.resume`;
  const writer = new ReportWriter(temp, format, false);
  const old = reportRecords(report, format)[Symbol.asyncIterator]();
  if (format === 'csv') await old.next(); // the header, written again by the writer
  const copy = async (n: number, keep: boolean): Promise<void> => {
    for (let i = 0; i < n; i++) {
      const next = await old.next();
      if (next.done === true || next.value.cells === undefined) return;
      if (!keep) continue;
      counts[next.value.cells.verdict as Verdict]++;
      await writer.raw(next.value.raw);
    }
  };
  // Per row sent to verify: how many rows to copy before it, and whether it replaces a report row.
  const gaps: { copies: number; replaces: boolean }[] = [];
  async function* planned(): AsyncGenerator<CsvRow> {
    let index = 0;
    let copies = 0;
    for await (const row of rows) {
      if (index < earlier.rows && earlier.errors[index] === 0) copies++;
      else {
        gaps.push({ copies, replaces: index < earlier.rows });
        copies = 0;
        yield row;
      }
      index++;
    }
  }
  try {
    for await (const line of verify(planned())) {
      const gap = gaps.shift()!;
      await copy(gap.copies, true);
      if (gap.replaces) await copy(1, false);
      counts[line.verdict]++;
      await writer.raw(each(line));
    }
  } finally {
    // Whatever was not reached stays as it was.
    await copy(Number.POSITIVE_INFINITY, true);
    await writer.close();
    renameSync(temp, report);
  }
}
