/**
 * `wallet settlements`: did the bank credit, each day, what the service settled? Verified by reconcile's
 * pipeline, summed by the SDK's `summarizeSettlements`, compared with the statement. Read-only.
 */
import { summarizeSettlements, type ReconcileLine } from '@wallet/node';

import { isLiveKey } from '../client.js';
import { OK, PROBLEM, terminalMessage, UsageError, type Output } from '../output.js';
import type { Encoding } from '../reconcile/csv.js';
import { noCounts } from '../reconcile/progress.js';
import { readHeader, readLedger, scanLedger, type CsvRow } from '../reconcile/ledger.js';
import { KeyRefused, noter, reportPath, startRun, type LedgerFlags } from '../reconcile/run.js';
import { DayTotals, type Charge } from '../settlements/days.js';
import { ChargeFile, chargeOf, writeReport, type Findings } from '../settlements/report.js';
import { readStatement } from '../settlements/statement.js';
import { printSummary } from '../settlements/summary.js';

/** The flags of `wallet settlements`. */
export interface SettlementsFlags extends LedgerFlags {
  statement: string;
  timeZone: string;
  dateColumn: string;
  creditColumn: string;
  creditUnit: 'kobo' | 'naira';
  statementEncoding?: Encoding;
}

/** Runs `wallet settlements`; resolves to the exit code. */
export async function settlementsCommand(
  file: string,
  flags: SettlementsFlags,
  out: Output,
): Promise<number> {
  const reportFile = reportPath(file, flags.out, '.settlements.csv', [
    [file, 'the ledger'],
    [flags.statement, 'the statement'],
  ]);
  try {
    summarizeSettlements([], { timeZone: flags.timeZone });
  } catch {
    throw new UsageError(`--time-zone '${flags.timeZone}' is not an IANA time zone such as Africa/Lagos.`);
  }
  const header = await readHeader(file, flags);
  // The statement first: a wrong column or date form ends the run before anything is sent.
  const statement = await readStatement(flags.statement, { ...flags, encoding: flags.statementEncoding });
  const scan = await scanLedger(file, flags, header.columns);
  const note = noter(out, flags.quiet);
  if (scan.repeats.size > 0)
    note(
      `${scan.repeats.size.toLocaleString('en')} row(s) repeat a reference of an earlier row: each is verified, its settlement counted once.`,
    );
  if (isLiveKey(flags)) note('Live key: settlements only verifies; no money moves.');

  const abort = new AbortController();
  const onSigint = (): void => abort.abort(new Error('interrupted'));
  process.on('SIGINT', onSigint);
  const verdicts = noCounts();
  const run = startRun(flags, out, scan.rows);
  const charges = new ChargeFile();
  const totals = new DayTotals(flags.timeZone);
  let unsettled = 0;
  const write = async (dated: Charge[]): Promise<void> => {
    for (const c of dated) await charges.write(c);
  };
  const each = async (line: ReconcileLine<CsvRow>): Promise<void> => {
    verdicts[line.verdict]++;
    const first = scan.repeats.get(line.expected.line);
    const charge = chargeOf(line, first === undefined ? '' : `reference repeats line ${first}`);
    const t = line.actual;
    // The truth rules: no day for an answer reconcile would not give a verdict on.
    const settled = line.verdict !== 'error' && t?.status === 'SUCCESS' && t.settlement?.status === 'SETTLED';
    if (!settled || first !== undefined) {
      if (t?.status === 'SUCCESS' && line.verdict !== 'error' && !settled) unsettled++;
      return charges.write(charge);
    }
    await write(totals.add(t, charge));
  };

  try {
    for await (const line of run.verify(readLedger(file, flags, header.columns), abort.signal))
      await each(line);
    await write(totals.flush());
    await charges.close();
    run.progress.stop();
    const found = await writeReport(reportFile, totals.judge(statement.credits), charges);
    const findings: Findings = {
      ...found,
      verdicts,
      unsettled,
      statementProblems: statement.problems,
      report: reportFile,
    };
    printSummary(out, findings, flags.timeZone, statement.unreadable);
    const ok =
      findings.days.every((d) => d.verdict === 'match') &&
      findings.problemCount === 0 &&
      statement.unreadable === 0;
    return ok ? OK : PROBLEM;
  } catch (error) {
    run.progress.stop();
    if (error instanceof KeyRefused) {
      out.note(
        terminalMessage(
          error.message.replace(/ Rows so far.*$/, ' Nothing was reported: fix the key and run again.'),
        ),
      );
      if (out.json) out.data({ stopped: error.error.code });
      return PROBLEM;
    }
    if (abort.signal.aborted) {
      out.note(
        'Interrupted: nothing was reported (a day is judged on all its charges). Run the command again.',
      );
      return PROBLEM;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
    charges.remove();
    await run.close();
  }
}
