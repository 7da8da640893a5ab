import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv, wallet } from './helpers/processes.js';
import { seededSandbox } from './helpers/seed.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-run-'));
const ROWS = 150;
// Slow answers, so a run is still going when the test interrupts it.
const sandbox = seededSandbox([{ reference: 'r_0', amount: 1000, status: 'SUCCESS' }], ['--latency', '20']);
const { env } = sandbox;

function ledger(name: string): string {
  const path = join(dir, name);
  const rows = Array.from({ length: ROWS }, (_, i) => `r_${i},1000,${i === 0 ? 'paid' : 'pending'}`);
  writeFileSync(path, `reference,amount,status\n${rows.join('\n')}\n`);
  return path;
}

describe('wallet reconcile, interrupted and resumed', () => {
  it('finishes the rows under way on Ctrl-C, leaves a report that --resume completes, every row once', async () => {
    const file = ledger('big.csv');
    const out = join(dir, 'big.report.csv');
    const first = await wallet(['reconcile', file, '--out', out, '--concurrency', '2'], {
      env,
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (existsSync(out) && statSync(out).size > 400) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 10);
      },
    });
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('Interrupted: run the same command with --resume');
    const partial = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(ROWS);

    const second = await wallet(['reconcile', file, '--out', out, '--resume', '--concurrency', '8'], { env });
    expect(second.stderr).toContain(`Resuming after ${partial.length} rows`);
    const whole = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    expect(whole.map((r) => r.reference)).toEqual(Array.from({ length: ROWS }, (_, i) => `r_${i}`));
    expect(whole[0]?.verdict).toBe('match');
    expect(whole.slice(1).every((r) => r.verdict === 'unknown_reference')).toBe(true);
    // The summary covers the whole ledger, the earlier run's rows included.
    expect(second.stdout).toMatch(new RegExp(`total\\s+${ROWS}`));
  });

  it('resumes after a report whose last row was torn mid-write', async () => {
    const file = ledger('torn.csv');
    const out = join(dir, 'torn.report.csv');
    await wallet(['reconcile', file, '--out', out, '--quiet'], { env });
    const lines = readFileSync(out, 'utf8').split('\n');
    writeFileSync(out, `${lines.slice(0, 11).join('\n')}\nr_10,unkn`);
    await wallet(['reconcile', file, '--out', out, '--resume', '--quiet'], { env });
    const whole = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    expect(whole.map((r) => r.reference)).toEqual(Array.from({ length: ROWS }, (_, i) => `r_${i}`));
  });

  it('wallet settlements --json stopped by Ctrl-C says so in one JSON value on stdout (exit 1)', async () => {
    // A repeated reference: its note comes once the run is about to start; 150 rows at 20 ms, one at
    // a time, are still being verified 300 ms later.
    const file = ledger('st-ledger.csv');
    writeFileSync(file, `${readFileSync(file, 'utf8')}r_1,1000,pending\n`);
    const statement = join(dir, 'st.csv');
    writeFileSync(statement, 'date,credit\n2026-11-21,9.80\n');
    const args = ['--json', 'settlements', file, '--statement', statement, '--concurrency', '1'];
    const ran = await wallet(args, {
      env,
      onSpawn: (child) =>
        child.stderr?.on('data', (c: string) => {
          if (c.includes('repeat a reference')) setTimeout(() => child.kill('SIGINT'), 300);
        }),
    });
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toContain('Interrupted: nothing was reported');
    expect(JSON.parse(ran.stdout)).toEqual({ interrupted: true });
  });

  it('draws a progress bar with rate, ETA and counts on a terminal (script -qc)', async () => {
    const file = ledger('tty.csv');
    const command = `${process.execPath} ${CLI_BIN} reconcile ${file} --out ${join(dir, 'tty.report.csv')}`;
    const started = performance.now();
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: cleanEnv({ ...env, TERM: 'xterm' }),
      });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
      child.on('error', reject);
      child.on('close', () => resolve(text));
    });
    // Each frame clears the line and redraws in place: ESC [2K after a carriage return.
    const frame = new RegExp(
      String.raw`\r\u001b\[2K\[#*-*\] +\d+% {2}[\d,]+/150 {2}[\d,]+/s {2}ETA \d+:\d\d {2}(match \d+ · )?unknown_reference \d+`,
    );
    expect(output).toMatch(frame);
    // At most ten frames a second, whatever the row rate (plus the final frame).
    const frames = output.split('\r\u001b[2K[').length - 1;
    expect(frames).toBeGreaterThan(0);
    expect(frames).toBeLessThanOrEqual(Math.ceil(((performance.now() - started) / 1000) * 10) + 1);
    expect(output).toMatch(/\[#{24}\] 100% {2}150\/150/);
    // Colour on a terminal; the summary names each verdict.
    expect(output).toContain('\x1b[');
    expect(output).toMatch(/unknown_reference.*149/);
  });

  it('prints no colour on a terminal when NO_COLOR is set, and no bar with --quiet', async () => {
    const file = ledger('nocolor.csv');
    const command = `${process.execPath} ${CLI_BIN} reconcile ${file} --quiet --out ${join(dir, 'nc.report.csv')}`;
    const output = await new Promise<string>((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: cleanEnv({ ...env, TERM: 'xterm', NO_COLOR: '1' }),
      });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
      child.on('close', () => resolve(text));
    });
    expect(output).toMatch(/total\s+150/);
    expect(output).not.toContain('\x1b[');
    expect(output).not.toContain('ETA');
  });
});
