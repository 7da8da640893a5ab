/**
 * What `wallet settlements` prints for a finance person: one line per day (verdict, expected,
 * credited, difference, charges), the charges behind each day that does not match (the first few;
 * all of them are in the report), the charges with a problem of their own, and what to do.
 */
import { formatNaira } from '@wallet/node';

import { table, terminalMessage, terminalText, type Output } from '../output.js';
import { verdictCounts } from '../reconcile/progress.js';
import type { Findings } from './report.js';
import type { DayVerdict } from './days.js';

/** How many references a day lists on the terminal. */
const SHOWN = 10;

/** Kobo for people: `₦1,234.50`, `-₦45.00`. */
const money = (kobo: number): string => `${kobo < 0 ? '-' : ''}${formatNaira(Math.abs(kobo))}`;

/** What each day verdict asks of the finance team. */
const DAY_ACTION: Readonly<Record<DayVerdict, string>> = {
  match: 'nothing to do',
  short: 'the bank credited less than settled: raise it with the service, with the charges below',
  over: 'the bank credited more than settled: another credit on the same day, or a late one',
  missing_credit: 'settled, but no credit that day: a late or missing settlement, ask the service',
  unexpected_credit: 'a credit with no settlement behind it: not from these charges',
};

/** Prints the summary (as JSON with `--json`). */
export function printSummary(out: Output, found: Findings, timeZone: string, unreadable: number): void {
  if (out.json) {
    out.data({
      report: found.report,
      timeZone,
      days: found.days.map((d) => ({
        ...d,
        ...(d.verdict === 'match' ? {} : { references: found.behind.get(d.date) ?? [] }),
      })),
      charges: found.verdicts,
      unsettled: found.unsettled,
      problems: found.problems,
      problemCount: found.problemCount,
      statement: { unreadable, problems: found.statementProblems },
    });
    return;
  }
  const { bold, green, red } = out.colors;
  const paint = (v: DayVerdict): string => (v === 'match' ? green(v) : red(v));
  out.line();
  out.line(bold(`Settlement days (${terminalText(timeZone)})`));
  const rows = [['date', 'verdict', 'expected', 'credited', 'difference', 'charges'].map(bold)];
  for (const d of found.days)
    rows.push([
      d.date,
      paint(d.verdict),
      money(d.net),
      money(d.credited),
      money(d.difference),
      d.charges.toLocaleString('en'),
    ]);
  for (const l of table(rows)) out.line(l);
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
  out.line(`Charges: ${verdictCounts(found.verdicts) || 'none'}`);
  if (found.unsettled > 0)
    out.line(
      `${found.unsettled.toLocaleString('en')} paid charge(s) not settled yet: in no day above; run again after settlement.`,
    );
  for (const p of found.statementProblems) out.line(red(`Statement: ${terminalText(p)}`));
  out.line(`Report: ${terminalMessage(found.report)}`);
}
