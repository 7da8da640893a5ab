/**
 * The merchant's ledger export, read as a stream: a CSV with a header row (BOM, quoted fields and
 * CRLF handled by csv-parse), columns named by flags, amounts in Kobo or in Naira converted exactly
 * with the SDK's `toKobo`. A row that cannot be read keeps its place and its line number, with the
 * problem said, so the report shows it where it was.
 */
import { createReadStream } from 'node:fs';

import { parse } from 'csv-parse';
import { toKobo, type LedgerRow, type LedgerStatus } from '@wallet/node';

/** Which columns hold what, and the unit of the amounts. */
export interface LedgerFormat {
  referenceColumn: string;
  amountColumn: string;
  statusColumn: string;
  amountUnit: 'kobo' | 'naira';
}

/** A ledger row with its line in the file, and what is wrong with it when it cannot be used. */
export interface CsvRow extends LedgerRow {
  line: number;
  problem?: string;
}

const STATUSES: readonly LedgerStatus[] = ['paid', 'pending', 'failed'];

function csvParser(file: string) {
  return createReadStream(file).pipe(
    parse({
      columns: true,
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }),
  );
}

/** The header's names, checked against the columns the run needs (a missing one is a usage error). */
export async function readHeader(file: string, format: LedgerFormat): Promise<string | undefined> {
  const parser = createReadStream(file).pipe(
    parse({ bom: true, to_line: 1, relax_column_count: true, trim: true }),
  );
  let header: string[] = [];
  for await (const record of parser as AsyncIterable<string[]>) header = record;
  const missing = [format.referenceColumn, format.amountColumn, format.statusColumn].filter(
    (c) => !header.includes(c),
  );
  if (missing.length === 0) return undefined;
  return `${file} has no column ${missing.map((m) => `'${m}'`).join(', ')} (its header: ${header.join(', ') || 'empty'}). Name the columns with --reference-column, --amount-column and --status-column.`;
}

function amountOf(raw: string, unit: LedgerFormat['amountUnit']): number | string {
  if (raw === '') return 'the amount is empty';
  if (unit === 'kobo') {
    return /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) && Number(raw) > 0
      ? Number(raw)
      : `amount '${raw}' is not a positive whole number of Kobo (use --amount-unit naira for amounts like 4500.00)`;
  }
  try {
    const kobo = toKobo(raw);
    return kobo > 0 ? kobo : `amount '${raw}' is not positive`;
  } catch (error) {
    return `amount '${raw}' is not an exact Naira amount (${(error as Error).message.split('\n')[0] ?? ''})`;
  }
}

/** One CSV record as a ledger row, or the same row with its problem. */
export function toRow(
  record: Record<string, string | undefined>,
  line: number,
  format: LedgerFormat,
): CsvRow {
  const reference = record[format.referenceColumn] ?? '';
  const amount = amountOf(record[format.amountColumn] ?? '', format.amountUnit);
  const rawStatus = record[format.statusColumn] ?? '';
  const status = rawStatus.toLowerCase() as LedgerStatus;
  const problems: string[] = [];
  if (reference === '') problems.push('the reference is empty');
  if (typeof amount === 'string') problems.push(amount);
  if (!STATUSES.includes(status)) problems.push(`status '${rawStatus}' is not one of ${STATUSES.join(', ')}`);
  const row: CsvRow = { line, reference, amount: typeof amount === 'number' ? amount : Number.NaN, status };
  if (problems.length > 0) row.problem = `line ${line}: ${problems.join('; ')}`;
  return row;
}

/** The ledger's rows in file order, from data row `skip` on; stops early when `stop()` says so. */
export async function* readLedger(
  file: string,
  format: LedgerFormat,
  skip: number,
  stop: () => boolean,
): AsyncGenerator<CsvRow, void, undefined> {
  let index = 0;
  const parser = csvParser(file);
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      if (stop()) return;
      if (index++ < skip) continue;
      yield toRow(record, info.lines, format);
    }
  } finally {
    parser.destroy();
  }
}

/** How many data rows the ledger holds (a fast first pass, for the progress bar's total and ETA). */
export async function countRows(file: string): Promise<number> {
  let count = 0;
  for await (const _ of csvParser(file)) count++;
  return count;
}
