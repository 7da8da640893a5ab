/** The merchant's ledger export as a stream; a row that cannot be used keeps its place and line, with its problem. */
import { toKobo, type LedgerRow, type LedgerStatus } from '@wallet/node';

import { UsageError } from '../output.js';
import { decodeFile, readCsv, type CsvRecord, type Encoding } from './csv.js';

/** Which columns hold what, the amounts' unit, the file's encoding. */
export interface LedgerFormat {
  referenceColumn: string;
  amountColumn: string;
  statusColumn: string;
  amountUnit: 'kobo' | 'naira';
  encoding?: Encoding | undefined;
}

/** A ledger row with its line in the file, and what is wrong with it when it cannot be used. */
export interface CsvRow extends LedgerRow {
  line: number;
  problem?: string;
}

interface Columns {
  reference: number;
  amount: number;
  status: number;
}

const STATUSES: readonly LedgerStatus[] = ['paid', 'pending', 'failed'];

function records(file: string, format: LedgerFormat): AsyncGenerator<CsvRecord> {
  return readCsv(decodeFile(file, format.encoding));
}

/** The header's columns and its other repeated names; a needed column missing or named twice is a usage error. */
export async function readHeader(
  file: string,
  format: LedgerFormat,
): Promise<{ columns: Columns; repeated: string[] }> {
  let header: string[] = [];
  for await (const record of records(file, format)) {
    header = (record.fields ?? []).map((f) => f.trim());
    break;
  }
  const needed = [format.referenceColumn, format.amountColumn, format.statusColumn];
  const repeated = [...new Set(header.filter((name, i) => header.indexOf(name) !== i))];
  const missing = needed.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new UsageError(
      `${file} has no column ${missing.map((m) => `'${m}'`).join(', ')} (its header: ${header.join(', ') || 'empty'}). Name the columns with --reference-column, --amount-column and --status-column.`,
    );
  const twice = needed.filter((c) => repeated.includes(c));
  if (twice.length > 0)
    throw new UsageError(
      `${file} names the column ${twice.map((m) => `'${m}'`).join(', ')} more than once: which one holds the value is a guess. Rename the copies in the header.`,
    );
  const at = (name: string): number => header.indexOf(name);
  return {
    columns: {
      reference: at(format.referenceColumn),
      amount: at(format.amountColumn),
      status: at(format.statusColumn),
    },
    repeated,
  };
}

function amountOf(raw: string, unit: LedgerFormat['amountUnit']): number | string {
  if (raw === '') return 'the amount is empty';
  if (unit === 'kobo')
    return /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) && Number(raw) > 0
      ? Number(raw)
      : `amount '${raw}' is not a positive whole number of Kobo (use --amount-unit naira for amounts like 4500.00)`;
  try {
    const kobo = toKobo(raw);
    return kobo > 0 ? kobo : `amount '${raw}' is not positive`;
  } catch (error) {
    return `amount '${raw}' is not an exact Naira amount (${(error as Error).message.split('\n')[0] ?? ''})`;
  }
}

function toRow(record: CsvRecord, columns: Columns, format: LedgerFormat): CsvRow {
  const { line, fields } = record;
  if (fields === undefined)
    return { line, reference: '', amount: Number.NaN, status: 'failed', problem: record.problem };
  const cell = (i: number): string => (fields[i] ?? '').trim();
  const reference = cell(columns.reference);
  const amount = amountOf(cell(columns.amount), format.amountUnit);
  const rawStatus = cell(columns.status);
  const status = rawStatus.toLowerCase() as LedgerStatus;
  const problems: string[] = [];
  if (reference === '') problems.push('the reference is empty');
  if (typeof amount === 'string') problems.push(amount);
  if (!STATUSES.includes(status)) problems.push(`status '${rawStatus}' is not one of ${STATUSES.join(', ')}`);
  const row: CsvRow = { line, reference, amount: typeof amount === 'number' ? amount : Number.NaN, status };
  if (problems.length > 0) row.problem = `line ${line}: ${problems.join('; ')}`;
  return row;
}

/** The ledger's rows in file order (the header skipped); stops early when `stop()` says so. */
export async function* readLedger(
  file: string,
  format: LedgerFormat,
  columns: Columns,
  stop: () => boolean = () => false,
): AsyncGenerator<CsvRow, void, undefined> {
  let header = true;
  for await (const record of records(file, format)) {
    if (stop()) return;
    if (!header) yield toRow(record, columns, format);
    header = false;
  }
}

/** Counts the rows, and maps the line of each row whose reference an earlier row had to that row's line. */
export async function scanLedger(
  file: string,
  format: LedgerFormat,
  columns: Columns,
  each?: (row: CsvRow) => void,
): Promise<{ rows: number; repeats: Map<number, number> }> {
  const firstLine = new Map<string, number>();
  const repeats = new Map<number, number>();
  let rows = 0;
  for await (const row of readLedger(file, format, columns)) {
    rows++;
    each?.(row);
    if (row.reference === '') continue;
    const first = firstLine.get(row.reference);
    if (first === undefined) firstLine.set(row.reference, row.line);
    else repeats.set(row.line, first);
  }
  return { rows, repeats };
}
