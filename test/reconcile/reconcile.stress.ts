/**
 * The stress proof of `wallet reconcile`: 100,000 ledger rows against the sandbox seeded with a
 * known mix of verdicts (fee_mismatch included: seeded with a fee the rule never gives), under the
 * sandbox's own faults (1% 5xx, 0.5% 429 with `Retry-After`), by the real `wallet` bin. Every row
 * gets exactly one verdict, the truth it was seeded with; none is lost or doubled. A second run, of
 * 10,000 rows against a sandbox whose 429s ask for a whole second, proves nobody comes back before
 * that second is up. Reports the time and the bin's peak RSS against a 100-row run of the same
 * command.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxSeedCharge } from '@wallet/node/testing';

import buildCli from '../../packages/cli/test/helpers/fresh-build.js';
import { CLI_BIN, cleanEnv } from '../../packages/cli/test/helpers/processes.js';

const ROWS = 100_000;
const PAUSED_ROWS = 10_000;
const KEY = 'sk_test_stress_reconcile_4eC39HqLyjWDarjtT1zdp7dc';
const dir = mkdtempSync(join(tmpdir(), 'wallet-reconcile-stress-'));
type Truth =
  | 'match'
  | 'paid_not_recorded'
  | 'recorded_not_paid'
  | 'still_pending'
  | 'amount_mismatch'
  | 'fee_mismatch'
  | 'unknown_reference'
  | 'error';
// The mix, per 100 rows: what the sandbox holds, what the ledger says, and the verdict that follows.
const MIX: [number, Truth][] = [
  [30, 'match'],
  [5, 'fee_mismatch'],
  [10, 'paid_not_recorded'],
  [10, 'recorded_not_paid'],
  [10, 'still_pending'],
  [10, 'amount_mismatch'],
  [24, 'unknown_reference'],
  [1, 'error'],
];
const MATCH_FAILED = 10; // of the 30 matches, 10 are failed in both books

const sandboxes: Sandbox[] = [];
const servers: { close(): Promise<void> }[] = [];
let url = '';
let pausedUrl = '';
let paused: Sandbox;
const faults = { unavailable: 0, limited: 0 };

function truthOf(i: number): { truth: Truth; failed: boolean } {
  let at = i % 100;
  for (const [share, truth] of MIX) {
    if (at < share) return { truth, failed: truth === 'match' && at < MATCH_FAILED };
    at -= share;
  }
  throw new Error('mix does not add up to 100');
}

/** A sandbox with these faults, seeded with `rows`, served on loopback. */
async function serve(rows: readonly SandboxSeedCharge[], options: Parameters<typeof createSandbox>[0]) {
  const sandbox = createSandbox({ maxCharges: ROWS, promptTtlMs: 3_600_000, ...options });
  sandboxes.push(sandbox);
  sandbox.seed(rows);
  const server = await sandbox.listen();
  servers.push(server);
  return { sandbox, url: server.url };
}

beforeAll(async () => {
  buildCli();
  const lines = ['reference,amount,status'];
  const rows: SandboxSeedCharge[] = [];
  const started = performance.now();
  for (let i = 0; i < ROWS; i++) {
    const reference = `st_${i}`;
    const amount = 1_000 + (i % 5_000) * 100;
    const { truth, failed } = truthOf(i);
    const status =
      truth === 'match'
        ? failed
          ? 'FAILED'
          : 'SUCCESS'
        : truth === 'paid_not_recorded' || truth === 'amount_mismatch' || truth === 'fee_mismatch'
          ? 'SUCCESS'
          : truth === 'recorded_not_paid'
            ? 'FAILED'
            : truth === 'still_pending'
              ? 'PENDING_AUTHORIZATION'
              : undefined;
    // A fee of 1 Kobo is never the fee rule's (2% of at least 1,000 Kobo): the service's figure to flag.
    if (status !== undefined)
      rows.push({ reference, amount, status, ...(truth === 'fee_mismatch' ? { fee: 1 } : {}) });
    const ledgerStatus =
      truth === 'paid_not_recorded' || truth === 'still_pending' ? 'pending' : failed ? 'failed' : 'paid';
    const ledgerAmount = truth === 'amount_mismatch' ? amount + 1 : amount;
    lines.push(
      truth === 'error' ? `${reference},not-a-number,paid` : `${reference},${ledgerAmount},${ledgerStatus}`,
    );
  }
  writeFileSync(join(dir, 'ledger.csv'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'small.csv'), `${lines.slice(0, 101).join('\n')}\n`);
  writeFileSync(join(dir, 'medium.csv'), `${lines.slice(0, PAUSED_ROWS + 1).join('\n')}\n`);

  // The sandbox's own faults: of the failing 1.5%, two thirds a 5xx and one third a 429 asking for
  // no wait, counted from its log.
  const counting = {
    info: () => undefined,
    warn: (line: string) => {
      if (line.includes('fault=error')) faults.unavailable++;
      if (line.includes('fault=rate-limit')) faults.limited++;
    },
  };
  ({ url } = await serve(rows, {
    faults: { failRate: 0.015, kinds: ['error', 'error', 'rate-limit'], retryAfter: 0, seed: 2026 },
    logger: counting,
  }));
  // A tenth of a percent of 429s asking for a whole second: about ten pauses in the 10,000 rows,
  // each checked against the sandbox's request history.
  ({ sandbox: paused, url: pausedUrl } = await serve(
    rows.filter((row) => Number(row.reference.slice(3)) < PAUSED_ROWS),
    {
      faults: { failRate: 0.001, kinds: ['rate-limit'], retryAfter: 1, seed: 2026 },
      historyLimit: 1_000_000,
    },
  ));
  console.log(`seeded ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

/** Runs the bin to its end, polling its peak RSS (VmHWM) while it runs. */
function run(
  args: string[],
  at = url,
): Promise<{ code: number | null; peakKb: number; seconds: number; stdout: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      env: cleanEnv({ WALLET_SECRET_KEY: KEY, WALLET_BASE_URL: at }),
    });
    let stdout = '';
    let peakKb = 0;
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    const poll = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        peakKb = Math.max(peakKb, Number(hwm?.[1] ?? 0));
      } catch {
        // exited between two polls
      }
    }, 50);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, peakKb, seconds: (performance.now() - started) / 1000, stdout });
    });
  });
}

it('reconciles 100,000 rows under faults: one true verdict per row, none lost or doubled, flat memory', async () => {
  const small = await run(['reconcile', join(dir, 'small.csv'), '--quiet', '--retries', '8']);
  const medium = await run(['reconcile', join(dir, 'medium.csv'), '--quiet', '--retries', '8'], pausedUrl);
  const big = await run([
    'reconcile',
    join(dir, 'ledger.csv'),
    '--quiet',
    '--retries',
    '8',
    '--concurrency',
    '8',
  ]);
  const report = parse<Record<string, string>>(readFileSync(join(dir, 'ledger.report.csv'), 'utf8'), {
    columns: true,
  });
  const growthMb = (big.peakKb - small.peakKb) / 1024;
  // After each 429 asking for a second, nobody may come back before it is up; requests already on
  // the wire when the 429 reached the bin arrive just after it: a 200 ms grace.
  const history = paused.requests.map((r) => ({ at: Date.parse(r.at), fault: r.fault }));
  const pauses = history.filter((r) => r.fault === 'rate-limit').map((r) => r.at);
  const during = pauses.flatMap((t) => history.filter((r) => r.at > t + 200 && r.at < t + 950));
  console.log(
    `reconcile ${ROWS} rows: ${big.seconds.toFixed(1)} s (${Math.round(ROWS / big.seconds)} rows/s), ` +
      `${faults.unavailable} x 5xx, ${faults.limited} x 429; ${pauses.length} x 429 asking 1 s in the 10,000-row run, ` +
      `peak RSS ${(big.peakKb / 1024).toFixed(1)} MB vs ${(small.peakKb / 1024).toFixed(1)} MB for 100 rows, ${(medium.peakKb / 1024).toFixed(1)} MB for 10,000: growth ${growthMb.toFixed(1)} MB`,
  );
  expect(report).toHaveLength(ROWS);
  const wrong: string[] = [];
  report.forEach((row, i) => {
    if (row.line !== String(i + 2) || row.reference !== `st_${i}`)
      wrong.push(`row ${i}: ${row.line} ${row.reference}`);
    else if (row.verdict !== truthOf(i).truth)
      wrong.push(`${row.reference}: ${row.verdict}, seeded ${truthOf(i).truth}`);
  });
  expect(wrong.slice(0, 10)).toEqual([]);
  expect(big.code).toBe(1);
  expect(faults.limited).toBeGreaterThan(100);
  expect(pauses.length).toBeGreaterThan(0);
  expect(during).toEqual([]);
  expect(medium.code).toBe(1);
  expect(growthMb).toBeLessThanOrEqual(64);
});
