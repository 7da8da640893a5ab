/** The merchant's ledger export as a stream; a row that cannot be used keeps its place and line, with its problem. */
import { toKobo, type LedgerRow, type LedgerStatus } from '@wallet/node';

import { terminalText, UsageError } from '../output.js';
import { decodeFile, readCsv, refuseBareCr, type CsvRecord, type Encoding } from './csv.js';

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

/** The header's columns and its other repeated names; a needed column missing or named twice is a usage error. */
export async function readHeader(
  file: string,
  format: LedgerFormat,
): Promise<{ columns: Columns; repeated: string[] }> {
  let header: string[] = [];
  let raw = '';
  for await (const record of readCsv(decodeFile(file, format.encoding))) {
    header = (record.fields ?? []).map((f) => f.trim());
    raw = record.raw;
    break;
  }
  refuseBareCr(file, raw, 'nothing was verified');
  const needed = [format.referenceColumn, format.amountColumn, format.statusColumn];
  const repeated = [...new Set(header.filter((name, i) => header.indexOf(name) !== i))];
  const missing = needed.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new UsageError(
      `${file} has no column ${missing.map((m) => `'${m}'`).join(', ')} (its header: ${header.map(terminalText).join(', ') || 'empty'}). Name the columns with --reference-column, --amount-column and --status-column.`,
    );
  const twice = needed.filter((c) => repeated.includes(c));
  if (twice.length > 0)
    throw new UsageError(
      `${file} names the column ${twice.map((m) => `'${m}'`).join(', ')} more than once: which one holds the value is a guess. Rename the copies in the header.`,
    );
  const [reference, amount, status] = needed.map((c) => header.indexOf(c)) as [number, number, number];
  return { columns: { reference, amount, status }, repeated };
}

/** A money cell (ledger amount, statement credit) in Kobo, or why it cannot be read; `hint` follows a bad Kobo cell. */
export function koboOf(
  raw: string,
  unit: 'kobo' | 'naira',
  what: string,
  hint: string,
  positive: boolean,
): number | string {
  const min = positive ? 1 : 0;
  if (unit === 'kobo')
    return /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) && Number(raw) >= min
      ? Number(raw)
      : `${what} '${raw}' is not a ${positive ? 'positive ' : ''}whole number of Kobo (${hint})`;
  try {
    const kobo = toKobo(raw);
    return kobo >= min ? kobo : `${what} '${raw}' is ${positive ? 'not positive' : 'negative'}`;
  } catch (error) {
    return `${what} '${raw}' is not an exact Naira amount (${(error as Error).message.split('\n')[0] ?? ''})`;
  }
}

function toRow(record: CsvRecord, columns: Columns, format: LedgerFormat): CsvRow {
  const { line, fields } = record;
  if (fields === undefined)
    return { line, reference: '', amount: Number.NaN, status: 'failed', problem: record.problem };
  const cell = (i: number): string => (fields[i] ?? '').trim();
  const reference = cell(columns.reference);
  const rawAmount = cell(columns.amount);
  const amount =
    rawAmount === ''
      ? 'the amount is empty'
      : koboOf(
          rawAmount,
          format.amountUnit,
          'amount',
          'use --amount-unit naira for amounts like 4500.00',
          true,
        );
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
  for await (const record of readCsv(decodeFile(file, format.encoding))) {
    if (stop()) return;
    if (!header) yield toRow(record, columns, format);
    header = false;
  }
}

// cyrb53: a 53-bit hash, so the table holds numbers, not strings.
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** First line by reference hash, off the heap: a `Map` of strings broke the 300k-row resume's 200 MB bound. */
class FirstLines {
  #keys = new Float64Array(1 << 16);
  #lines = new Uint32Array(1 << 16);
  #size = 0;

  /** The first line seen for `key`, after recording `line` for it when it is new. */
  firstOf(key: number, line: number): number {
    if ((this.#size + 1) * 2 > this.#keys.length) this.#grow();
    const stored = key + 1; // 0 marks an empty slot
    const mask = this.#keys.length - 1;
    for (let i = key % this.#keys.length; ; i = (i + 1) & mask) {
      if (this.#keys[i] === 0) {
        this.#keys[i] = stored;
        this.#lines[i] = line;
        this.#size++;
        return line;
      }
      if (this.#keys[i] === stored) return this.#lines[i]!;
    }
  }

  #grow(): void {
    const [keys, lines] = [this.#keys, this.#lines];
    this.#keys = new Float64Array(keys.length * 2);
    this.#lines = new Uint32Array(keys.length * 2);
    this.#size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) this.firstOf(keys[i]! - 1, lines[i]!);
  }
}

/** Counts the rows and finds repeated references; a second read confirms each hash match (a false repeat would make a day look short). */
export async function scanLedger(
  file: string,
  format: LedgerFormat,
  columns: Columns,
  each?: (row: CsvRow) => void,
  hash: (reference: string) => number = hash53,
): Promise<{ rows: number; repeats: Map<number, number> }> {
  const firstLines = new FirstLines();
  const matched = new Map<number, number>();
  let rows = 0;
  for await (const row of readLedger(file, format, columns)) {
    rows++;
    each?.(row);
    if (row.reference === '') continue;
    const first = firstLines.firstOf(hash(row.reference), row.line);
    if (first !== row.line) matched.set(row.line, first);
  }
  const repeats = matched.size === 0 ? matched : await confirmRepeats(file, format, columns, matched);
  return { rows, repeats };
}

/** The real repeats among the hash matches. */
async function confirmRepeats(
  file: string,
  format: LedgerFormat,
  columns: Columns,
  matched: Map<number, number>,
): Promise<Map<number, number>> {
  const involved = new Set([...matched.keys(), ...matched.values()]);
  const firstLine = new Map<string, number>();
  const repeats = new Map<number, number>();
  for await (const row of readLedger(file, format, columns)) {
    if (!involved.has(row.line)) continue;
    const first = firstLine.get(row.reference);
    if (first === undefined) firstLine.set(row.reference, row.line);
    else repeats.set(row.line, first);
  }
  return repeats;
}
