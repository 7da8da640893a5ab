/** The bank statement's credits per day (Naira or Kobo; a date or a timestamp, its day in the bank's zone); an unreadable row is a problem, never a guess. */
import { UsageError } from '../output.js';
import { decodeFile, readCsv, refuseBareCr, type Encoding } from '../reconcile/csv.js';
import { koboOf } from '../reconcile/ledger.js';

/** The statement's columns, credit unit, time zone and encoding. */
export interface StatementFormat {
  dateColumn: string;
  creditColumn: string;
  creditUnit: 'kobo' | 'naira';
  timeZone: string;
  encoding?: Encoding | undefined;
}

/** The credits of one day: Kobo, and how many statement rows. */
export interface Credited {
  amount: number;
  rows: number;
}

/** The credits by day; the unreadable rows counted, the first {@link MAX_PROBLEMS} named (`line N: why`), and by day (`''`: a day that cannot be read). */
export interface Statement {
  credits: Map<string, Credited>;
  problems: string[];
  unreadable: number;
  uncounted: Map<string, number>;
}

/** How many unreadable rows are named one by one. */
const MAX_PROBLEMS = 50;

/** The calendar day (`YYYY-MM-DD`) of an instant in `timeZone`. */
function dayIn(timeZone: string): (at: number) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return (at) => {
    const parts: Record<string, string> = {};
    for (const { type, value } of format.formatToParts(at)) parts[type] = value;
    return `${parts.year}-${parts.month}-${parts.day}`;
  };
}

// A negative amount as banks and spreadsheets write one: -98.00, ₦-98.00, -₦98.00, (98.00).
const NEGATIVE = /^(?:₦\s*)?[-\u2212]|^\(.*\)$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A real calendar day (not 2026-02-30). */
function isDay(text: string): boolean {
  const at = new Date(`${text}T00:00:00Z`);
  return DAY.test(text) && !Number.isNaN(at.getTime()) && at.toISOString().startsWith(text);
}

/** The day a statement's date cell names, or why it cannot be read. */
function dayOf(raw: string, day: (at: number) => string): string | { problem: string } {
  if (isDay(raw)) return raw;
  const local = LOCAL_TIME.exec(raw);
  if (local !== null && isDay(local[1]!)) return local[1]!;
  // Date.parse rolls an impossible day over (30 February is 2 March): the day is checked first.
  if (ZONED_TIME.test(raw) && isDay(raw.slice(0, 10)) && !Number.isNaN(Date.parse(raw)))
    return day(Date.parse(raw));
  return {
    problem: `date '${raw}' is not YYYY-MM-DD or a timestamp (convert 26/11/2026 to 2026-11-26 in the spreadsheet)`,
  };
}

/** Reads the statement whole (one row per credit: small); refuses one without its columns. */
export async function readStatement(file: string, format: StatementFormat): Promise<Statement> {
  const day = dayIn(format.timeZone);
  const credits = new Map<string, Credited>();
  const problems: string[] = [];
  const uncounted = new Map<string, number>();
  let unreadable = 0;
  let columns: { date: number; credit: number; width: number } | undefined;
  const problem = (text: string, date = ''): void => {
    unreadable++;
    uncounted.set(date, (uncounted.get(date) ?? 0) + 1);
    if (problems.length < MAX_PROBLEMS) problems.push(text);
  };
  for await (const record of readCsv(decodeFile(file, format.encoding, '--statement-encoding'))) {
    if (record.fields === undefined) {
      problem(record.problem);
      continue;
    }
    if (columns === undefined) {
      const header = record.fields.map((f) => f.trim());
      refuseBareCr(file, record.raw, 'nothing was sent');
      const at = (name: string): number => header.indexOf(name);
      for (const name of [format.dateColumn, format.creditColumn]) {
        if (at(name) < 0)
          throw new UsageError(
            `${file} has no column '${name}' (its header: ${header.join(', ') || 'empty'}). Name the statement's columns with --date-column and --credit-column.`,
          );
        if (header.lastIndexOf(name) !== at(name))
          throw new UsageError(`${file} names the column '${name}' more than once: rename the copies.`);
      }
      columns = { date: at(format.dateColumn), credit: at(format.creditColumn), width: header.length };
      continue;
    }
    // More cells than the header (a comma in an unquoted narration) shift the columns after it: a
    // debit would be read as the credit, the empty credit falling past the header.
    if (record.fields.length > columns.width) {
      problem(
        `statement line ${record.line}: ${record.fields.length} cells, the header has ${columns.width} (a comma in a field that is not quoted?)`,
      );
      continue;
    }
    const cell = (i: number): string => (record.fields[i] ?? '').trim();
    const raw = cell(columns.credit);
    // An empty credit is a debit row: skipped. So is '-', how Excel's Accounting format saves 0.00
    // (with the Naira sign, '₦ -': Excel's default Accounting symbol in a Nigerian locale).
    const credit =
      raw === '' || /^₦?\s*-$/.test(raw)
        ? 0
        : koboOf(raw, format.creditUnit, 'credit', 'use --credit-unit naira', false);
    const date = dayOf(cell(columns.date), day);
    if (typeof credit !== 'number') {
      // A credit taken back is no credit of its day, but leaves that day in doubt: named, never confirmed.
      const why = NEGATIVE.test(raw)
        ? `credit '${raw}' is negative: a reversal or a debit, not counted; if it takes back a settlement, that day is short by it`
        : credit;
      problem(`statement line ${record.line}: ${why}`, typeof date === 'string' ? date : '');
      continue;
    }
    if (credit === 0) continue;
    if (typeof date !== 'string') {
      problem(`statement line ${record.line}: ${date.problem}`);
      continue;
    }
    const sum = credits.get(date) ?? { amount: 0, rows: 0 };
    sum.amount += credit;
    sum.rows++;
    credits.set(date, sum);
  }
  if (columns === undefined) throw new UsageError(`${file} is empty: a statement needs a header row.`);
  return { credits, problems, unreadable, uncounted };
}
