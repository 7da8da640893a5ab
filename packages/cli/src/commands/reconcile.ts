/** `wallet reconcile FILE.csv` (read-only): Ctrl-C finishes the rows under way so `--resume` carries on; a second stops at once. */
import { existsSync, statSync } from 'node:fs';

import { VERDICTS, type ReconcileLine, type Verdict } from '@wallet/node';

import { isLiveKey } from '../client.js';
import { OK, PROBLEM, table, terminalMessage, terminalText, UsageError, type Output } from '../output.js';
import { readHeader, readLedger, scanLedger, type CsvRow } from '../reconcile/ledger.js';
import { formatOf, reportWriter, rowText, type ReportFormat } from '../reconcile/report.js';
import { noCounts } from '../reconcile/progress.js';
import { holdsRows, originFile, originOf, sameOrigin, writeOrigin } from '../reconcile/origin.js';
import { readEarlier, rewriteReport, sameLedger } from '../reconcile/resume.js';
import {
  KeyRefused,
  noter,
  PROBLEMS,
  reportPath,
  sameFile,
  startRun,
  type LedgerFlags,
} from '../reconcile/run.js';

export interface ReconcileFlags extends LedgerFlags {
  format?: ReportFormat;
  resume: boolean;
}

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
  out.line(`Report: ${terminalMessage(reportFile)}`);
  if (interrupted) out.line(yellow('Interrupted: run the same command with --resume to carry on.'));
}

export async function reconcileCommand(file: string, flags: ReconcileFlags, out: Output): Promise<number> {
  const format = flags.format ?? formatOf(flags.out ?? '.csv');
  const reportFile = reportPath(file, flags.out, `.report.${format}`, [[file, 'the ledger']]);
  // The origin is written beside the report: never over the ledger (one named REPORT.origin).
  if (sameFile(file, originFile(reportFile)))
    throw new UsageError(
      `--out ${reportFile}: ${originFile(reportFile)}, kept beside the report, is the ledger itself: nothing was written. Give the report another name.`,
    );
  const header = await readHeader(file, flags);
  const note = noter(out, flags.quiet);
  // Before the report is read (a torn tail is cut): a report of another mode or service stays as it is.
  if (flags.resume && existsSync(reportFile))
    sameOrigin(reportFile, originOf(flags), note, holdsRows(reportFile, format));
  const earlier = flags.resume ? await readEarlier(reportFile, format) : undefined;
  const check = earlier === undefined ? undefined : sameLedger(earlier, reportFile, format);
  let index = 0;
  const scan = await scanLedger(file, flags, header.columns, (row) => check?.row(row, index++));
  check?.done(scan.rows);
  if (header.repeated.length > 0)
    note(
      `The header names ${header.repeated.map((c) => `'${c}'`).join(', ')} more than once (not a column this run reads).`,
    );
  if (scan.repeats.size > 0)
    note(
      `${scan.repeats.size.toLocaleString('en')} row(s) repeat a reference of an earlier row: each is verified and its report row says which line it repeats.`,
    );
  if (isLiveKey(flags)) note('Live key: reconcile only verifies; no money moves.');

  const errors = earlier?.verdicts.error ?? 0;
  const before = { done: (earlier?.rows ?? 0) - errors, verdicts: { ...earlier?.verdicts, error: 0 } };
  if (earlier !== undefined)
    note(
      `Resuming after ${earlier.rows.toLocaleString('en')} rows already in ${reportFile}${errors > 0 ? `; verifying its ${errors.toLocaleString('en')} error row(s) again` : ''}.`,
    );

  let stopping = false;
  const abort = new AbortController();
  const onSigint = (): void => {
    if (stopping) abort.abort(new Error('interrupted twice'));
    stopping = true;
    out.note('\nStopping: finishing the rows under way (Ctrl-C again to stop at once)…');
  };
  process.on('SIGINT', onSigint);

  const counts = noCounts();
  const run = startRun(flags, out, scan.rows, before);
  if (!flags.resume && existsSync(reportFile)) note(`Overwriting ${reportFile}.`);
  const verify = (rows: AsyncIterable<CsvRow>) => run.verify(rows, abort.signal);
  const each = (line: ReconcileLine<CsvRow>): string => {
    // The ledger's own text (a quoted cell can hold a line break): every control escaped, \n too.
    if (line.expected.problem !== undefined) note(terminalText(line.expected.problem));
    const first = scan.repeats.get(line.expected.line);
    return rowText(line, first === undefined ? '' : `reference repeats line ${first}`, format);
  };
  const rows = readLedger(file, flags, header.columns, () => stopping);
  try {
    // Started over (no report to carry on): the report is emptied before its origin is replaced.
    writeOrigin(reportFile, originOf(flags), earlier === undefined);
    if (earlier !== undefined && errors > 0) {
      await rewriteReport(reportFile, format, earlier, rows, verify, each, counts);
    } else {
      Object.assign(counts, earlier?.verdicts ?? {});
      const append = earlier !== undefined && statSync(reportFile).size > 0;
      const writer = reportWriter(reportFile, format, append);
      try {
        let skip = earlier?.rows ?? 0;
        const rest = (async function* () {
          for await (const row of rows) if (skip-- <= 0) yield row;
        })();
        for await (const line of verify(rest)) {
          counts[line.verdict]++;
          await writer.write(each(line));
        }
      } finally {
        await writer.close();
      }
    }
  } catch (error) {
    if (error instanceof KeyRefused) {
      run.progress.stop();
      out.note(terminalMessage(error.message));
      if (out.json) out.data({ report: reportFile, stopped: error.error.code, verdicts: counts });
      return PROBLEM;
    }
    if (!abort.signal.aborted) throw error;
  } finally {
    process.off('SIGINT', onSigint);
    await run.close();
  }
  const interrupted = stopping;
  if (out.json) out.data({ report: reportFile, interrupted, verdicts: counts });
  else summary(out, counts, reportFile, interrupted);
  const problems = VERDICTS.some((v) => PROBLEMS.has(v) && counts[v] > 0);
  return problems || interrupted ? PROBLEM : OK;
}
