/**
 * `wallet settlements` at 100,000 charges over seven Lagos days, against `wallet-sandbox --clock
 * manual`: the statement has one day short, one credit missing and one unexpected, and the report
 * names exactly those days and the charges behind them. The `wallet` process's rows per second and
 * peak RSS are printed; it runs in a 64 MB heap and its RSS stays under 200 MB (per-day totals
 * only, the charges on disk).
 * Long: stress stage.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv } from './helpers/processes.js';
import { seed, seededSandbox } from './helpers/seed.js';
import { expectedByDay, nairaText, paidCharges, statementCsv } from './helpers/settlement-days.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-settlements-stress-'));
// SETTLEMENTS_STRESS_PER_DAY=1430 runs 10,000 charges: the same peak RSS is what flat means.
const charges = paidCharges('2026-11-01', 7, Number(process.env.SETTLEMENTS_STRESS_PER_DAY ?? 14_285));
const sandbox = seededSandbox([], ['--clock', 'manual', '--max-charges', '200000']);

async function write(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines)
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(() => r()));
}

function* ledgerLines() {
  yield 'reference,amount,status\n';
  for (const c of charges) yield `${c.reference},${c.amount},paid\n`;
}

/** Runs the bin with a preload that writes its peak RSS (KiB) to a file when it exits. */
function run(
  args: readonly string[],
): Promise<{ code: number | null; rssMB: number; ms: number; stdout: string }> {
  const rssFile = join(dir, 'rss');
  const preload = join(dir, 'rss.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => require('fs').writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  const started = performance.now();
  return new Promise((resolve) => {
    // A heap capped at 64 MB: a run whose memory grew with the charges would end out of memory.
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=64', '--require', preload, CLI_BIN, ...args],
      {
        env: cleanEnv({ ...sandbox.env, RSS_FILE: rssFile }),
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.resume();
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        ms: performance.now() - started,
        rssMB: Number(readFileSync(rssFile, 'utf8')) / 1024,
      }),
    );
  });
}

describe('wallet settlements at scale', () => {
  it('judges 100,000 charges over seven days with flat memory, naming exactly the days off', async () => {
    for (let i = 0; i < charges.length; i += 5_000)
      await seed(
        sandbox.url,
        charges
          .slice(i, i + 5_000)
          .map(({ reference, amount, status, paidAt }) => ({ reference, amount, status, paidAt })),
      );
    const expected = expectedByDay(charges);
    const days = [...expected.keys()].sort();
    expect(days.length).toBe(7);
    const [short, missing] = [days[2]!, days[4]!];
    const rows = days
      .filter((d) => d !== missing)
      .map(
        (d) => [d, 'WALLET SETTLEMENT', '', nairaText(expected.get(d)! - (d === short ? 5_000 : 0))] as const,
      );
    const statement = join(dir, 'statement.csv');
    writeFileSync(statement, statementCsv([...rows, ['2026-11-20', 'REVERSAL', '', '₦75.00']]));
    const ledger = join(dir, 'ledger.csv');
    await write(ledger, ledgerLines());
    const out = join(dir, 'report.csv');

    const ran = await run([
      '--json',
      'settlements',
      ledger,
      '--statement',
      statement,
      '--out',
      out,
      '--concurrency',
      '16',
    ]);
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as { days: { date: string; verdict: string }[] };
    expect(result.days.filter((d) => d.verdict !== 'match')).toEqual([
      expect.objectContaining({ date: short, verdict: 'short', difference: -5_000 }),
      expect.objectContaining({ date: missing, verdict: 'missing_credit' }),
      expect.objectContaining({ date: '2026-11-20', verdict: 'unexpected_credit' }),
    ]);
    const listed = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true }).filter(
      (r) => r.kind === 'charge',
    );
    const behind = charges.filter((c) => c.settledOn === short || c.settledOn === missing);
    expect(listed.length).toBe(behind.length);
    expect(new Set(listed.map((r) => r.reference))).toEqual(new Set(behind.map((c) => c.reference)));
    expect(ran.rssMB).toBeLessThan(200);
    console.log(
      `settlements of ${charges.length.toLocaleString('en')} charges: ${Math.round((charges.length * 1000) / ran.ms).toLocaleString('en')} rows/s (${(ran.ms / 1000).toFixed(1)} s, process start included), peak RSS ${ran.rssMB.toFixed(0)} MB`,
    );
  });
});
