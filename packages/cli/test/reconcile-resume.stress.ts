/**
 * `--resume` reads the report as a stream: a report of 300,000 rows (some of them `error`, so the
 * report is rewritten, every other row copied) is resumed with the `wallet` process's peak RSS
 * under 200 MB, and a second resume carries the finished report on in place. Long: stress stage.
 */
import { mkdtempSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv } from './helpers/processes.js';
import { seededSandbox } from './helpers/seed.js';

const DONE = 300_000;
const MORE = 1_000;
const ERRORS = new Set(Array.from({ length: 100 }, (_, i) => i * 2_999));
const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-resume-stress-'));
const sandbox = seededSandbox(
  [...ERRORS, ...Array.from({ length: MORE + 500 }, (_, i) => DONE + i)].map((i) => ({
    reference: `r_${i}`,
    amount: 10_000,
    status: 'SUCCESS' as const,
  })),
);

async function write(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines)
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(() => r()));
}

function* ledgerLines(rows: number) {
  yield 'reference,amount,status\n';
  for (let i = 0; i < rows; i++) yield `r_${i},10000,paid\n`;
}

function* reportLines() {
  yield 'line,reference,verdict,expected_amount,expected_status,actual_amount,actual_status,fee,net_amount,detail\n';
  for (let i = 0; i < DONE; i++)
    yield ERRORS.has(i)
      ? `${i + 2},r_${i},error,10000,paid,,,,,"The connection failed\n(after 3 attempts)"\n`
      : `${i + 2},r_${i},match,10000,paid,10000,SUCCESS,200,9800,\n`;
}

/** Runs the bin with a preload that writes its peak RSS (KiB) to a file when it exits. */
function resume(
  ledger: string,
  out: string,
): Promise<{ code: number | null; rssMB: number; stderr: string }> {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const preload = join(dir, 'rss.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => require('fs').writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--require', preload, CLI_BIN, 'reconcile', ledger, '--out', out, '--resume', '--quiet'],
      { env: cleanEnv({ ...sandbox.env, RSS_FILE: rssFile }) },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdout.resume();
    child.on('close', (code) =>
      resolve({ code, stderr, rssMB: Number(readFileSync(rssFile, 'utf8')) / 1024 }),
    );
  });
}

describe('wallet reconcile --resume at scale', () => {
  it('resumes a 300,000-row report with error rows under 200 MB, then carries it on in place', async () => {
    const ledger = join(dir, 'ledger.csv');
    const out = join(dir, 'ledger.report.csv');
    await write(ledger, ledgerLines(DONE + MORE));
    await write(out, reportLines());
    const first = await resume(ledger, out);
    expect(first.code, first.stderr).toBe(0);
    expect(first.rssMB).toBeLessThan(200);
    const text = readFileSync(out, 'utf8');
    expect(text.split('\n').length - 2).toBe(DONE + MORE);
    expect(text).not.toContain(',error,');
    expect(text).toContain(`\n${DONE + MORE + 1},r_${DONE + MORE - 1},match,`);
    console.log(
      `resume of ${DONE.toLocaleString('en')} rows (100 error rows): peak RSS ${first.rssMB.toFixed(0)} MB`,
    );

    await write(ledger, ledgerLines(DONE + MORE + 500));
    const second = await resume(ledger, out);
    expect(second.code, second.stderr).toBe(0);
    expect(second.rssMB).toBeLessThan(200);
    expect(readFileSync(out, 'utf8').split('\n').length - 2).toBe(DONE + MORE + 500);
    console.log(
      `resume in place of ${(DONE + MORE).toLocaleString('en')} rows: peak RSS ${second.rssMB.toFixed(0)} MB`,
    );
  });
});
