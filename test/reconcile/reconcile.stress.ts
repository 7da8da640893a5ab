/**
 * The stress proof of `wallet reconcile`: 100,000 ledger rows against the sandbox seeded with a
 * known mix of verdicts, through a fault layer (1% 503, 0.5% 429 with Retry-After), by the real
 * `wallet` bin. Every row gets exactly one verdict, the truth it was seeded with; none is lost or
 * doubled. Reports the time and the bin's peak RSS against a 100-row run of the same command.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

import buildCli from '../../packages/cli/test/helpers/fresh-build.js';
import { CLI_BIN, cleanEnv } from '../../packages/cli/test/helpers/processes.js';
import { mulberry32 } from '../../src/testing/endpoints/faults.js';

const ROWS = 100_000;
const KEY = 'sk_test_stress_reconcile_4eC39HqLyjWDarjtT1zdp7dc';
const dir = mkdtempSync(join(tmpdir(), 'wallet-reconcile-stress-'));
type Truth =
  | 'match'
  | 'paid_not_recorded'
  | 'recorded_not_paid'
  | 'still_pending'
  | 'amount_mismatch'
  | 'unknown_reference'
  | 'error';
// The mix, per 100 rows: what the sandbox holds, what the ledger says, and the verdict that follows.
const MIX: [number, Truth][] = [
  [35, 'match'],
  [10, 'paid_not_recorded'],
  [10, 'recorded_not_paid'],
  [10, 'still_pending'],
  [10, 'amount_mismatch'],
  [24, 'unknown_reference'],
  [1, 'error'],
];
const MATCH_FAILED = 10; // of the 35 matches, 10 are failed in both books

let sandbox: Sandbox;
let layer: Server;
let url = '';
const faults = { unavailable: 0, limited: 0, longPauses: [] as number[], during: 0, requests: 0 };

async function call(path: string, body: unknown): Promise<{ data: { linkedBanks: { bankId: string }[] } }> {
  const response = await sandbox.fetch(
    new Request(`${sandbox.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: { linkedBanks: { bankId: string }[] } };
}

function truthOf(i: number): { truth: Truth; failed: boolean } {
  let at = i % 100;
  for (const [share, truth] of MIX) {
    if (at < share) return { truth, failed: truth === 'match' && at < MATCH_FAILED };
    at -= share;
  }
  throw new Error('mix does not add up to 100');
}

beforeAll(async () => {
  buildCli();
  sandbox = createSandbox({ maxCharges: ROWS, promptTtlMs: 3_600_000 });
  const lines = ['reference,amount,status'];
  const started = performance.now();
  for (let i = 0; i < ROWS; i++) {
    const reference = `st_${i}`;
    const amount = 1_000 + (i % 5_000) * 100;
    const { truth, failed } = truthOf(i);
    const serviceState =
      truth === 'match'
        ? failed
          ? 'FAILED'
          : 'SUCCESS'
        : truth === 'paid_not_recorded' || truth === 'amount_mismatch'
          ? 'SUCCESS'
          : truth === 'recorded_not_paid'
            ? 'FAILED'
            : truth === 'still_pending'
              ? 'PENDING'
              : undefined;
    if (serviceState !== undefined) {
      const resolved = await call('/v1/charges/resolve-handle', { handle: '@ada', amount, reference });
      await call('/v1/charges/dispatch', {
        reference,
        bankId: resolved.data.linkedBanks[0]!.bankId,
        authChannel: 'wallet_push',
      });
      if (serviceState === 'SUCCESS') await sandbox.authorize(reference);
      if (serviceState === 'FAILED') await sandbox.decline(reference);
    }
    const ledgerStatus =
      truth === 'paid_not_recorded' || truth === 'still_pending' ? 'pending' : failed ? 'failed' : 'paid';
    const ledgerAmount = truth === 'amount_mismatch' ? amount + 1 : amount;
    lines.push(
      truth === 'error' ? `${reference},not-a-number,paid` : `${reference},${ledgerAmount},${ledgerStatus}`,
    );
  }
  writeFileSync(join(dir, 'ledger.csv'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'small.csv'), `${lines.slice(0, 101).join('\n')}\n`);
  writeFileSync(join(dir, 'medium.csv'), `${lines.slice(0, 10_001).join('\n')}\n`);
  console.log(`seeded ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The fault layer: a loopback server in front of the sandbox, answering a seeded share itself.
  const draw = mulberry32(2026);
  let pausedUntil = 0;
  layer = createServer((req, res) => {
    faults.requests++;
    // Requests already on the wire when the 429 reached the client arrive just after it: a
    // 200 ms grace; after that, nobody may come back before the second is up.
    if (performance.now() > pausedUntil - 750 && performance.now() < pausedUntil) faults.during++;
    const roll = draw();
    if (roll < 0.01) {
      faults.unavailable++;
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end('{"status":"error","message":"unavailable"}');
      return;
    }
    if (roll < 0.015) {
      faults.limited++;
      // Every 100th 429 asks for a whole second, and the layer checks that nobody comes back sooner.
      const long = faults.limited % 100 === 0;
      if (long) {
        pausedUntil = performance.now() + 950;
        faults.longPauses.push(performance.now());
      }
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': long ? '1' : '0' });
      res.end('{"status":"error","message":"slow down"}');
      return;
    }
    void sandbox
      .fetch(
        new Request(`${sandbox.baseUrl}${req.url}`, {
          headers: { authorization: req.headers.authorization ?? '' },
        }),
      )
      .then(async (response) => {
        res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text());
      });
  });
  await new Promise<void>((resolve) => layer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(layer.address() as AddressInfo).port}`;
}, 600_000);

afterAll(async () => {
  if (layer !== undefined) {
    layer.closeAllConnections();
    await new Promise((resolve) => layer.close(resolve));
  }
  await sandbox?.close();
});

/** Runs the bin to its end, polling its peak RSS (VmHWM) while it runs. */
function run(
  args: string[],
): Promise<{ code: number | null; peakKb: number; seconds: number; stdout: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      env: cleanEnv({ WALLET_SECRET_KEY: KEY, WALLET_BASE_URL: url }),
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
  const medium = await run(['reconcile', join(dir, 'medium.csv'), '--quiet', '--retries', '8']);
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
  console.log(
    `reconcile ${ROWS} rows: ${big.seconds.toFixed(1)} s (${Math.round(ROWS / big.seconds)} rows/s), ` +
      `${faults.requests} requests, ${faults.unavailable} x 503, ${faults.limited} x 429 (${faults.longPauses.length} asking 1 s), ` +
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
  expect(faults.during).toBe(0);
  expect(growthMb).toBeLessThanOrEqual(64);
});
