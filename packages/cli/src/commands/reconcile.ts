/**
 * `wallet reconcile FILE.csv`: the ledger in, a report out, a summary at the end. Read-only with
 * any key: it only verifies. Ctrl-C stops reading the ledger and finishes the rows already under
 * way, so the report ends on a whole row and `--resume` carries on; a second Ctrl-C stops at once.
 */
import { basename, dirname, join } from 'node:path';
import { existsSync } from 'node:fs';

import { VERDICTS, type ReconcileProgress, type Verdict } from '@wallet/node';

import { createClient, keyMode, keyOf, type ClientFlags } from '../client.js';
import { OK, PROBLEM, table, UsageError, type Output } from '../output.js';
import { countRows, readHeader, readLedger, type LedgerFormat } from '../reconcile/ledger.js';
import { createProgress } from '../reconcile/progress.js';
import { formatOf, readEarlier, ReportWriter, toReportRow, type ReportFormat } from '../reconcile/report.js';

/** The flags of `wallet reconcile`. */
export interface ReconcileFlags extends ClientFlags {
  out?: string;
  format?: ReportFormat;
  amountUnit: 'kobo' | 'naira';
  concurrency: number;
  retries: number;
  referenceColumn: string;
  amountColumn: string;
  statusColumn: string;
  resume: boolean;
  quiet: boolean;
}

/** The verdicts that need someone to act; `match` and `still_pending` do not. */
const PROBLEMS: ReadonlySet<Verdict> = new Set([
  'paid_not_recorded',
  'recorded_not_paid',
  'amount_mismatch',
  'fee_mismatch',
  'unknown_reference',
  'error',
]);

/** What each verdict asks of the merchant, for the summary. */
const ACTION: Readonly<Record<Verdict, string>> = {
  match: 'nothing to do',
  paid_not_recorded: 'paid, webhook missed: fulfil these orders',
  recorded_not_paid: 'marked paid but not paid: stop fulfilment, investigate',
  amount_mismatch: 'another amount on the service: investigate before anything else',
  fee_mismatch: 'fee or net amount off the fee rule: raise with the service',
  still_pending: 'customer has not answered yet: check again later',
  unknown_reference: 'the service has no such charge: never dispatched?',
  error: 'could not verify, or a bad row: see detail, run again with --resume',
};

function defaultOut(file: string, format: ReportFormat | undefined): string {
  const stem = basename(file).replace(/\.csv$/i, '');
  return join(dirname(file), `${stem}.report.${format === 'jsonl' ? 'jsonl' : 'csv'}`);
}

function summary(
  out: Output,
  counts: Readonly<Record<Verdict, number>>,
  reportFile: string,
  interrupted: boolean,
) {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const { bold, green, red, yellow } = out.colors;
  const paint = (v: Verdict, text: string): string =>
    v === 'match' ? green(text) : v === 'still_pending' ? yellow(text) : counts[v] > 0 ? red(text) : text;
  out.line();
  const rows = [[bold('verdict'), bold('rows'), bold('what to do')]];
  for (const v of VERDICTS)
    if (counts[v] > 0) rows.push([paint(v, v), counts[v].toLocaleString('en'), ACTION[v]]);
  rows.push([bold('total'), bold(total.toLocaleString('en')), '']);
  for (const l of table(rows)) out.line(l);
  out.line();
  out.line(`Report: ${reportFile}`);
  if (interrupted) out.line(yellow('Interrupted: run the same command with --resume to carry on.'));
}

/** Runs `wallet reconcile`; resolves to the exit code. */
export async function reconcileCommand(file: string, flags: ReconcileFlags, out: Output): Promise<number> {
  if (!existsSync(file)) throw new UsageError(`${file}: no such file.`);
  const format = flags.format ?? formatOf(flags.out ?? '.csv');
  const reportFile = flags.out ?? defaultOut(file, format);
  const ledgerFormat: LedgerFormat = { ...flags };
  const headerProblem = await readHeader(file, ledgerFormat);
  if (headerProblem !== undefined) throw new UsageError(headerProblem);
  if (!flags.resume && existsSync(reportFile) && !flags.quiet) out.note(`Overwriting ${reportFile}.`);

  const earlier = flags.resume ? readEarlier(reportFile, format) : undefined;
  const skip = earlier?.rows ?? 0;
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, earlier?.verdicts[v] ?? 0])) as Record<
    Verdict,
    number
  >;
  const total = await countRows(file);
  if (keyMode(keyOf(flags)) === 'live' && !flags.quiet)
    out.note('Live key: reconcile only verifies; no money moves.');
  if (earlier !== undefined && !flags.quiet)
    out.note(`Resuming after ${skip.toLocaleString('en')} rows already in ${reportFile}.`);

  let stopping = false;
  const abort = new AbortController();
  const onSigint = (): void => {
    if (stopping) abort.abort(new Error('interrupted twice'));
    stopping = true;
    out.note('\nStopping: finishing the rows under way (Ctrl-C again to stop at once)…');
  };
  process.on('SIGINT', onSigint);

  const wallet = createClient(flags);
  const writer = new ReportWriter(reportFile, format, earlier !== undefined);
  const progress = createProgress(out, flags.quiet, total, skip);
  let checkedResume = earlier === undefined;
  try {
    const rows = readLedger(file, ledgerFormat, skip, () => stopping);
    const lines = wallet.charges.reconcile(rows, {
      concurrency: flags.concurrency,
      maxRetries: flags.retries,
      signal: abort.signal,
      total: Math.max(total - skip, 0),
      onProgress: (p: ReconcileProgress) => progress.update(p),
    });
    for await (const line of lines) {
      if (!checkedResume && earlier !== undefined) {
        checkedResume = true;
        if (line.expected.line <= earlier.lastLine)
          throw new UsageError(`${reportFile} does not belong to ${file}.`);
      }
      counts[line.verdict]++;
      await writer.write(toReportRow(line));
      if (line.expected.problem !== undefined && !flags.quiet) out.note(line.expected.problem);
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    process.off('SIGINT', onSigint);
    progress.stop();
    await writer.close();
    await wallet.close();
  }
  const interrupted = stopping;
  if (out.json) out.data({ report: reportFile, interrupted, verdicts: counts });
  else summary(out, counts, reportFile, interrupted);
  const problems = VERDICTS.some((v) => PROBLEMS.has(v) && counts[v] > 0);
  return problems || interrupted ? PROBLEM : OK;
}
