/** The settlement report for a spreadsheet: a row per day, then per charge behind an off day or with its own problem; charges wait on disk. */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { stringify } from 'csv-stringify/sync';
import type { ReconcileLine } from '@wallet/node';

import { inertCell } from '../output.js';
import type { CsvRow } from '../reconcile/ledger.js';
import { detailOf, FileWriter } from '../reconcile/report.js';
import { PROBLEMS } from '../reconcile/run.js';
import { doubtOf, type Charge, type Day } from './days.js';

/** A verified line as a {@link Charge}, with no day yet. */
export function chargeOf(line: ReconcileLine<CsvRow>, note: string): Charge {
  const { actual } = line;
  return {
    line: line.expected.line,
    reference: line.reference,
    verdict: line.verdict,
    date: '',
    amount: actual?.amount ?? null,
    fee: actual?.fee ?? null,
    net: actual?.netAmount ?? null,
    settledAt: actual?.settlement?.settledAt ?? '',
    detail: detailOf(line, note),
  };
}

/** The run's charges, one JSON line each, in a temporary file removed at the end. */
export class ChargeFile {
  readonly #dir = mkdtempSync(join(tmpdir(), 'wallet-settlements-'));
  readonly #file = join(this.#dir, 'charges.jsonl');
  readonly #writer = new FileWriter(this.#file);

  async write(...charges: Charge[]): Promise<void> {
    for (const charge of charges) await this.#writer.write(`${JSON.stringify(charge)}\n`);
  }

  close(): Promise<void> {
    return this.#writer.close();
  }

  /** The charges written, in the order written. */
  async *read(): AsyncGenerator<Charge> {
    const lines = createInterface({ input: createReadStream(this.#file), crlfDelay: Infinity });
    for await (const line of lines) if (line !== '') yield JSON.parse(line) as Charge;
  }

  remove(): void {
    this.#writer.destroy();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

const COLUMNS = [
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

/** What the summary names: the first {@link LISTED} references behind each off day and charges with a problem of their own, and how many of those. */
export interface Findings {
  days: Day[];
  behind: Map<string, string[]>;
  problems: Charge[];
  problemCount: number;
}

/** Kobo as Naira with two decimals (`-4500` is `-45.00`), exactly: no floating point. */
function naira(kobo: number | null): string {
  if (kobo === null) return '';
  const abs = Math.abs(kobo);
  return `${kobo < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const LISTED = 1000;

/** Writes the report (days, then charges worth a look) and gathers what the summary names. */
export async function writeReport(file: string, days: Day[], charges: ChargeFile): Promise<Findings> {
  const writer = new FileWriter(file, stringify([[...COLUMNS]]));
  const row = (cells: Partial<Record<(typeof COLUMNS)[number], string>>): Promise<void> =>
    writer.write(stringify([COLUMNS.map((c) => cells[c] ?? '')]));
  const verdictOf = new Map(days.map((d) => [d.date, d.verdict]));
  const behind = new Map<string, string[]>();
  const problems: Charge[] = [];
  let problemCount = 0;
  try {
    for (const day of days)
      await row({
        kind: 'day',
        date: day.date,
        day_verdict: day.verdict,
        expected_ngn: naira(day.net),
        credited_ngn: naira(day.credited),
        difference_ngn: naira(day.difference),
        charges: String(day.charges),
        detail: doubtOf(day),
      });
    for await (const c of charges.read()) {
      const day = verdictOf.get(c.date);
      const problem = PROBLEMS.has(c.verdict);
      if (problem) {
        problemCount++;
        if (problems.length < LISTED) problems.push(c);
      }
      const off = day !== undefined && day !== 'match';
      if (off) {
        const refs = behind.get(c.date) ?? [];
        if (refs.length < LISTED) refs.push(c.reference);
        behind.set(c.date, refs);
      }
      if (off || problem)
        await row({
          kind: 'charge',
          date: c.date,
          day_verdict: day ?? '',
          line: String(c.line),
          reference: inertCell(c.reference),
          charge_verdict: c.verdict,
          amount_ngn: naira(c.amount),
          fee_ngn: naira(c.fee),
          net_ngn: naira(c.net),
          settled_at: inertCell(c.settledAt),
          detail: inertCell(c.detail),
        });
    }
  } finally {
    await writer.close();
  }
  return { days, behind, problems, problemCount };
}
