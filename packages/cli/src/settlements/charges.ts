/**
 * The run's charges on disk, one JSON line each, in a private temporary directory: written as
 * rows are verified, read back once the days are judged to list the charges behind every day that
 * does not match. Memory stays flat however long the ledger; the file is removed at the end.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import type { ReconcileLine, Verdict } from '@wallet/node';

import type { CsvRow } from '../reconcile/ledger.js';
import { endStream, writeText } from '../reconcile/report.js';

/** One verified ledger row, as the settlement report needs it. Money in Kobo. */
export interface Charge {
  line: number;
  reference: string;
  verdict: Verdict;
  /** The day its settlement is counted in, or '' when it is not (unsettled, an error, a repeat). */
  date: string;
  amount: number | null;
  fee: number | null;
  net: number | null;
  settledAt: string;
  detail: string;
}

/** A verified line as a {@link Charge}, with no day yet. */
export function chargeOf(line: ReconcileLine<CsvRow>, note: string): Charge {
  const detail = line.expected.problem ?? line.detail;
  return {
    line: line.expected.line,
    reference: line.reference,
    verdict: line.verdict,
    date: '',
    amount: line.actual?.amount ?? null,
    fee: line.actual?.fee ?? null,
    net: line.actual?.netAmount ?? null,
    settledAt: line.actual?.settlement?.settledAt ?? '',
    detail: note === '' ? detail : detail === '' ? note : `${detail}; ${note}`,
  };
}

/** Writes the charges, then reads them back. */
export class ChargeFile {
  readonly #dir = mkdtempSync(join(tmpdir(), 'wallet-settlements-'));
  readonly #file = join(this.#dir, 'charges.jsonl');
  readonly #stream: WriteStream = createWriteStream(this.#file);

  /** Writes one charge; resolves when the stream can take more (backpressure). */
  write(charge: Charge): Promise<void> {
    return writeText(this.#stream, `${JSON.stringify(charge)}\n`);
  }

  /** Ends writing; resolves once everything is on disk. */
  close(): Promise<void> {
    return endStream(this.#stream);
  }

  /** The charges written, in the order written. */
  async *read(): AsyncGenerator<Charge> {
    const lines = createInterface({ input: createReadStream(this.#file), crlfDelay: Infinity });
    for await (const line of lines) if (line !== '') yield JSON.parse(line) as Charge;
  }

  /** Removes the file and its directory. */
  remove(): void {
    this.#stream.destroy();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
