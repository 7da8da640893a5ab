/** The pipeline of every command that verifies a ledger: inputs checked, the SDK's `charges.reconcile`, progress, a refused key ending the run. */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { isApiError, VERDICTS, type ReconcileLine, type Verdict, type WalletError } from '@wallet/node';

import { createClient, type ClientFlags } from '../client.js';
import { terminalMessage, UsageError, type Output } from '../output.js';
import type { CsvRow, LedgerFormat } from './ledger.js';
import { createProgress, type Before, type Progress } from './progress.js';

/** The flags every command that verifies a ledger takes (program.ts's `ledgerOptions()`). */
export interface LedgerFlags extends ClientFlags, LedgerFormat {
  out?: string;
  concurrency: number;
  retries: number;
  quiet: boolean;
  maxWait: number; // seconds
}

/** The verdicts that need someone to act; `match` and `still_pending` do not. */
export const PROBLEMS: ReadonlySet<Verdict> = new Set(
  VERDICTS.filter((v) => v !== 'match' && v !== 'still_pending'),
);

/** The same file by any path (a link, `./`, another spelling, a trailing `/` that stat refuses). */
export function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    try {
      return join(realpathSync(dirname(b)), basename(b)) === realpathSync(a);
    } catch {
      return false;
    }
  }
}

/** The report's path (`--out`, else `suffix` beside the ledger); a usage error if an input is missing or is the report. */
export function reportPath(
  file: string,
  out: string | undefined,
  suffix: string,
  inputs: readonly (readonly [string, string])[],
): string {
  for (const [input, what] of inputs) {
    if (!existsSync(input)) throw new UsageError(`${input}: no such file.`);
    if (statSync(input).isDirectory()) throw new UsageError(`${input} is a directory, not ${what}.`);
  }
  // The ledger is read more than once (checked, then verified): a pipe would look empty the second time.
  if (!statSync(file).isFile())
    throw new UsageError(
      `${file} is not a file but a pipe or a device, and the ledger is read more than once: save the export to a file first.`,
    );
  const beside = `${basename(file).replace(/\.csv$/i, '')}${suffix}`;
  // `--out "$REPORT"` with the variable unset: a file named '' fails only once the rows are verified.
  if (out === '')
    throw new UsageError(
      `--out is empty (a variable that is not set?): name the report file, or leave --out out for the default (${beside}).`,
    );
  const report = out ?? join(dirname(file), beside);
  for (const [input, what] of inputs)
    if (sameFile(input, report))
      throw new UsageError(
        `--out ${report} is ${what} itself: nothing was written. Give the report another name.`,
      );
  // Refused here, before a single request: the stream would only fail once the run is under way.
  if (existsSync(report) && statSync(report).isDirectory())
    throw new UsageError(`--out ${report} is a directory: name the report file inside it.`);
  if (!existsSync(dirname(report)))
    throw new UsageError(`--out ${report}: the directory ${dirname(report)} does not exist.`);
  if (!statSync(dirname(report)).isDirectory())
    throw new UsageError(`--out ${report}: ${dirname(report)} is a file, not a directory.`);
  return report;
}

/** A note on stderr, controls escaped; none with `--quiet`. */
export function noter(out: Output, quiet: boolean): (text: string) => void {
  return (text) => {
    if (!quiet) out.note(terminalMessage(text));
  };
}

/** The service refused the key (401) or this machine (403): no row can be verified. */
export class KeyRefused extends Error {
  override readonly name = 'KeyRefused';
  readonly error: WalletError;
  constructor(error: WalletError) {
    const why =
      isApiError(error) && error.status === 403
        ? "403: the key's IP allow list does not include this machine"
        : '401: the service refused the key';
    super(
      `Stopped: ${why} (${error.message.split('\n')[0] ?? ''}). Rows so far are in the report; fix the key and run again with --resume.`,
    );
    this.error = error;
  }
}

/** A run: `verify` reconciles rows in order and throws {@link KeyRefused} at the first 401 or 403; `close` clears the bar and closes the client. */
export interface LedgerRun {
  readonly progress: Progress;
  verify(rows: AsyncIterable<CsvRow>, signal: AbortSignal): AsyncGenerator<ReconcileLine<CsvRow>>;
  close(): Promise<void>;
}

/** Starts a run of `total` ledger rows, `before` of them already in the report (a resume). */
export function startRun(
  flags: LedgerFlags,
  out: Output,
  total: number,
  before: Before = { done: 0, verdicts: {} },
): LedgerRun {
  const wallet = createClient(flags);
  // No key or no address: nothing can be verified, so the SDK's words once, before any report is
  // written, not one error row per reference (each getter throws naming what is not set).
  void [wallet.mode, wallet.baseUrl];
  const progress = createProgress(out, flags.quiet, total, before);
  return {
    progress,
    async *verify(rows, signal) {
      // Our own stop, so a refused key can end the rows under way too.
      const stop = new AbortController();
      const onAbort = (): void => stop.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const lines = wallet.charges.reconcile(rows, {
          concurrency: flags.concurrency,
          maxRetries: flags.retries,
          maxWait: flags.maxWait * 1000,
          signal: stop.signal,
          total: total - before.done,
          onProgress: (p) => progress.update(p),
        });
        for await (const line of lines) {
          const { error } = line;
          if (isApiError(error) && (error.status === 401 || error.status === 403)) {
            stop.abort(error);
            throw new KeyRefused(error);
          }
          yield line;
        }
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      progress.stop();
      await wallet.close();
    },
  };
}
