/** `--resume`: carry on the report of the same ledger (rows fingerprinted), its torn tail cut, its `error` rows verified again. */
import { createReadStream, existsSync, renameSync, truncateSync } from 'node:fs';
import { TextDecoder } from 'node:util';

import type { ReconcileLine, Verdict } from '@wallet/node';

import { UsageError } from '../output.js';
import { readCsv } from './csv.js';
import type { CsvRow } from './ledger.js';
import { noCounts, type Counts } from './progress.js';
import { COLUMNS, fingerprint, ledgerCells, reportWriter, type ReportFormat } from './report.js';

/** An earlier report's whole rows: their verdicts, and per row whether it is an `error` and its ledger side's fingerprint. */
export interface EarlierReport {
  rows: number;
  verdicts: Counts;
  errors: boolean[];
  prints: number[];
}

const notReport = (file: string, why: string): UsageError =>
  new UsageError(
    `${file} is not a report of wallet reconcile (${why}): not resumed, nothing written. Give --out another file, or run without --resume to start over.`,
  );

/** The report's text. This CLI writes UTF-8 without a byte-order mark, so either refuses the file: its byte counts would be off. */
async function* text(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let first = true;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let part: string;
    try {
      part = decoder.decode(chunk, { stream: true });
    } catch {
      throw notReport(file, 'it holds bytes that are not UTF-8');
    }
    if (first && part.startsWith('\uFEFF'))
      throw notReport(file, 'it starts with a byte-order mark: another program saved it');
    if (part !== '') first = false;
    yield part;
  }
  try {
    decoder.decode();
  } catch {
    yield '\uFFFD'; // a character cut short at the very end: part of the torn tail
  }
}

const cellText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v == null ? '' : JSON.stringify(v);

/** The report's records as cells by column name (CSV or JSON lines), each with where it ends. */
async function* reportRecords(
  file: string,
  format: ReportFormat,
): AsyncGenerator<{ cells: Record<string, string> | undefined; end: number; torn: boolean; raw: string }> {
  if (format === 'jsonl') {
    let end = 0;
    let pending = '';
    for await (const chunk of text(file)) {
      pending += chunk;
      for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        end += Buffer.byteLength(line) + 1;
        if (line.trim() === '') continue;
        let cells: Record<string, string> | undefined;
        try {
          const value = JSON.parse(line) as Record<string, unknown>;
          cells = Object.fromEntries(COLUMNS.map((c) => [c, cellText(value[c])]));
        } catch {
          cells = undefined;
        }
        yield { cells, end, torn: false, raw: `${line}\n` };
      }
    }
    if (pending !== '') yield { cells: undefined, end, torn: true, raw: pending };
    return;
  }
  let header = true;
  for await (const record of readCsv(text(file))) {
    const torn = record.torn === true;
    if (header) {
      header = false;
      if (!torn && record.fields?.join(',') !== COLUMNS.join(','))
        throw notReport(file, "its first line is not the report's header");
      // A header cut short is a torn record too: cut to nothing, and the header is written again.
      yield { cells: torn ? undefined : HEADER, end: torn ? 0 : record.end, torn, raw: record.raw };
      continue;
    }
    const fields = record.fields;
    const cells =
      fields?.length === COLUMNS.length
        ? Object.fromEntries(COLUMNS.map((c, i) => [c, fields[i]!]))
        : undefined;
    yield { cells, end: record.end, torn, raw: record.raw };
  }
}

/** Stands for the header row among records. */
const HEADER: Record<string, string> = { verdict: 'header' };

/** Reads the report an interrupted run left, cutting off a torn last record; refuses any other file. */
export async function readEarlier(file: string, format: ReportFormat): Promise<EarlierReport | undefined> {
  if (!existsSync(file)) return undefined;
  const verdicts = noCounts();
  const errors: boolean[] = [];
  const prints: number[] = [];
  let rows = 0;
  let whole = 0;
  // Where the torn tail starts: the records after the last whole row, of which the last must be torn
  // (an unclosed quote at the end is read as a record that is not a row, then a torn one).
  let tail: number | undefined;
  let torn = false;
  for await (const record of reportRecords(file, format)) {
    const { cells, end } = record;
    if (cells === HEADER) {
      whole = end;
      continue;
    }
    torn = record.torn;
    const verdict = cells?.verdict as Verdict | undefined;
    if (cells === undefined || verdict === undefined || !(verdict in verdicts) || torn) {
      tail ??= end;
      continue;
    }
    if (tail !== undefined) break; // a whole row after the tail began: not a report
    errors.push(verdict === 'error');
    prints.push(fingerprint([cells.line!, cells.reference!, cells.expected_amount!, cells.expected_status!]));
    verdicts[verdict]++;
    rows++;
    whole = end;
  }
  if (tail !== undefined && !torn)
    throw notReport(file, `the record ending at byte ${tail} is not a report row`);
  if (tail !== undefined) truncateSync(file, whole);
  return { rows, verdicts, errors, prints };
}

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

/** Rewrites the report beside it (rows not in `error` copied, the others verified) and renames it over it, whole even if interrupted. */
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
  const writer = reportWriter(temp, format, false);
  const old = reportRecords(report, format)[Symbol.asyncIterator]();
  if (format === 'csv') await old.next(); // the header, written again by the writer
  const copy = async (n: number, keep: boolean): Promise<void> => {
    for (let i = 0; i < n; i++) {
      const next = await old.next();
      if (next.done === true || next.value.cells === undefined) return;
      if (!keep) continue;
      counts[next.value.cells.verdict as Verdict]++;
      await writer.write(next.value.raw);
    }
  };
  // Per row sent to verify: how many rows to copy before it, and whether it replaces a report row.
  const gaps: { copies: number; replaces: boolean }[] = [];
  async function* planned(): AsyncGenerator<CsvRow> {
    let index = 0;
    let copies = 0;
    for await (const row of rows) {
      if (index < earlier.rows && !earlier.errors[index]) copies++;
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
      await writer.write(each(line));
    }
  } finally {
    // Whatever was not reached stays as it was.
    await copy(Number.POSITIVE_INFINITY, true);
    await writer.close();
    renameSync(temp, report);
  }
}
