/** `wallet settlements`: did the bank credit, each day, what the service settled? Read-only. */
import { formatNaira, summarizeSettlements } from '@wallet/node';

import { isLiveKey } from '../client.js';
import { OK, PROBLEM, table, terminalMessage, terminalText, UsageError, type Output } from '../output.js';
import type { Encoding } from '../reconcile/csv.js';
import { noCounts, verdictCounts, type Counts } from '../reconcile/progress.js';
import { readHeader, readLedger, scanLedger } from '../reconcile/ledger.js';
import { KeyRefused, noter, reportPath, startRun, type LedgerFlags } from '../reconcile/run.js';
import {
  DayTotals,
  doubtOf,
  withDoubts,
  type Charge,
  type Day,
  type DayVerdict,
} from '../settlements/days.js';
import { ChargeFile, chargeOf, writeReport, type Findings } from '../settlements/report.js';
import { readStatement, type Statement, type StatementFormat } from '../settlements/statement.js';

const SHOWN = 10; // references and charges listed on the terminal

/** What each day verdict asks of the finance team. */
const DAY_ACTION: Readonly<Record<DayVerdict, string>> = {
  match: 'nothing to do',
  short: 'the bank credited less than settled: raise it with the service, with the charges below',
  over: 'the bank credited more than settled: another credit on the same day, or a late one',
  missing_credit: 'settled, but no credit that day: a late or missing settlement, ask the service',
  unexpected_credit: 'a credit with no settlement behind it: not from these charges',
};

function printSummary(
  out: Output,
  found: Findings,
  run: { verdicts: Counts; unsettled: number; statement: Statement; report: string; timeZone: string },
): void {
  const { verdicts, unsettled, statement, report, timeZone } = run;
  if (out.json) {
    out.data({
      report,
      timeZone,
      days: found.days.map((d) => ({
        ...d,
        ...(d.verdict === 'match' ? {} : { references: found.behind.get(d.date) ?? [] }),
      })),
      charges: verdicts,
      unsettled,
      problems: found.problems,
      problemCount: found.problemCount,
      statement: { unreadable: statement.unreadable, problems: statement.problems },
    });
    return;
  }
  const { bold, green, red, yellow } = out.colors;
  const unverified = found.days[0]?.unverified ?? 0;
  const uncounted = found.days.filter((d) => d.uncounted !== undefined).length;
  const paint = (v: DayVerdict, d?: Day): string =>
    v !== 'match' ? red(v) : d !== undefined && doubtOf(d) !== '' ? yellow(`${v}?`) : green(v);
  out.line();
  out.line(bold(`Settlement days (${terminalText(timeZone)})`));
  const rows = [['date', 'verdict', 'expected', 'credited', 'difference', 'charges'].map(bold)];
  for (const d of found.days)
    rows.push([
      d.date,
      paint(d.verdict, d),
      formatNaira(d.net),
      formatNaira(d.credited),
      formatNaira(d.difference),
      d.charges.toLocaleString('en'),
    ]);
  for (const l of table(rows)) out.line(l);
  if (unverified > 0)
    out.line(
      yellow(
        `? Not confirmed: ${unverified.toLocaleString('en')} charge(s) could not be verified (below), and each may have been settled on any day above. Run again once they verify.`,
      ),
    );
  if (uncounted > 0)
    out.line(
      yellow(
        `? Not confirmed: statement rows that could not be counted (below) may belong to ${uncounted.toLocaleString('en')} of the days above.`,
      ),
    );
  const off = found.days.filter((d) => d.verdict !== 'match');
  for (const d of off) {
    out.line();
    out.line(`${bold(d.date)} ${paint(d.verdict)}: ${DAY_ACTION[d.verdict]}.`);
    const refs = (found.behind.get(d.date) ?? []).slice(0, SHOWN);
    if (d.charges === 0) continue;
    const more = d.charges - refs.length;
    out.line(
      `  ${d.charges.toLocaleString('en')} charge(s) behind it: ${refs.map(terminalText).join(', ')}${more > 0 ? `, and ${more.toLocaleString('en')} more in the report` : ''}`,
    );
  }
  if (found.problemCount > 0) {
    out.line();
    out.line(red(`${found.problemCount.toLocaleString('en')} charge(s) with a problem of their own:`));
    for (const c of found.problems.slice(0, SHOWN))
      out.line(`  line ${c.line} ${terminalText(c.reference)} ${c.verdict}: ${terminalText(c.detail)}`);
    if (found.problemCount > SHOWN) out.line('  (all of them are in the report)');
  }
  out.line();
  out.line(`Charges: ${verdictCounts(verdicts) || 'none'}`);
  if (unsettled > 0)
    out.line(
      `${unsettled.toLocaleString('en')} paid charge(s) not settled yet: in no day above; run again after settlement.`,
    );
  for (const p of statement.problems) out.line(red(`Statement: ${terminalText(p)}`));
  // The rest are named nowhere (not in the report): their count at least.
  if (statement.unreadable > statement.problems.length)
    out.line(
      red(
        `Statement: ${statement.unreadable.toLocaleString('en')} statement rows could not be read: the first ${statement.problems.length} are above.`,
      ),
    );
  out.line(`Report: ${terminalMessage(report)}`);
}

export interface SettlementsFlags extends LedgerFlags, Omit<StatementFormat, 'encoding'> {
  statement: string;
  statementEncoding?: Encoding;
}

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
  // Counted as written: a settled charge the SDK cannot place on a day becomes an error there.
  // A reference (its first line) whose rows all ended in `error` has no known day: it may be any.
  const placed = new Set<number>();
  const unplaced = new Set<number>();
  const record = async (...written: Charge[]): Promise<void> => {
    for (const c of written) {
      verdicts[c.verdict]++;
      (c.verdict === 'error' ? unplaced : placed).add(scan.repeats.get(c.line) ?? c.line);
    }
    await charges.write(...written);
  };
  // A repeated reference's settlement counts once, on its first row that has one (by first line):
  // the first row may be unreadable or fail to verify, and the day must not look short for it.
  const repeated = new Set(scan.repeats.values());
  const counted = new Set<number>();
  const waiting = new Set<number>(); // a repeated reference not settled yet is one charge waiting
  let unsettled = 0;
  try {
    for await (const line of run.verify(readLedger(file, flags, header.columns), abort.signal)) {
      const first = scan.repeats.get(line.expected.line);
      const charge = chargeOf(line, first === undefined ? '' : `reference repeats line ${first}`);
      const group = first ?? line.expected.line;
      const t = line.actual;
      // The truth rules: no day for an answer reconcile would not give a verdict on.
      const paid = line.verdict !== 'error' && t?.status === 'SUCCESS';
      const settled = paid && t.settlement?.status === 'SETTLED';
      if (settled && !counted.has(group)) {
        if (repeated.has(group)) counted.add(group);
        await record(...totals.add(t, charge));
      } else {
        if (paid && !settled && !waiting.has(group)) {
          if (repeated.has(group)) waiting.add(group);
          unsettled++;
        }
        await record(charge);
      }
    }
    await record(...totals.flush());
    await charges.close();
    run.progress.stop();
    // A day matched without a charge that could not be verified is not confirmed: it may be that day's.
    const unverified = [...unplaced].filter((group) => !placed.has(group)).length;
    const days = withDoubts(totals.judge(statement.credits), unverified, statement.uncounted);
    const found = await writeReport(reportFile, days, charges);
    printSummary(out, found, {
      verdicts,
      unsettled,
      statement,
      report: reportFile,
      timeZone: flags.timeZone,
    });
    const ok =
      found.days.every((d) => d.verdict === 'match') &&
      found.problemCount === 0 &&
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
      // A script reads stdout: it gets why there is no result, as reconcile's --json says it too.
      if (out.json) out.data({ interrupted: true });
      return PROBLEM;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
    charges.remove();
    await run.close();
  }
}
