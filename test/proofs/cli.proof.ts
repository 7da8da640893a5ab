/**
 * `@wallet/cli` from its packed tarball, as the README tells a merchant: in a fresh project with
 * the SDK's tarball and the CLI's installed, `npx wallet-sandbox` serves, `npx wallet doctor`
 * passes against it, and `npx wallet reconcile orders.csv` writes the report with each verdict.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { freshProject, removePacked } from './pack.mjs';

const KEY = 'sk_test_cli_proof_4eC39HqLyjWDarjt';
const ORDERS = 'reference,amount,status\norder_1,4500.00,paid\norder_2,1200.00,pending\norder_3,50.00,paid\n';

let app: Awaited<ReturnType<typeof freshProject>>;
let stopSandbox: () => void = () => undefined;
let baseUrl = '';

beforeAll(async () => {
  app = await freshProject({
    name: 'cli-proof',
    workspaces: ['packages/cli'],
    files: { 'orders.csv': ORDERS },
  });
  const sandbox = spawn(join(app.dir, 'node_modules', '.bin', 'wallet-sandbox'), ['--port', '0', '--quiet'], {
    cwd: app.dir,
  });
  stopSandbox = () => sandbox.kill('SIGTERM');
  baseUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    sandbox.on('exit', (code) => reject(new Error(`wallet-sandbox exited ${code}: ${seen}`)));
    sandbox.stdout.setEncoding('utf8').on('data', (c: string) => {
      seen += c;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
  });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { data: { linkedBanks: { bankId: string }[] } };
  };
  for (const [reference, amount] of [
    ['order_1', 450_000],
    ['order_2', 120_000],
  ] as const) {
    const resolved = await post('/v1/charges/resolve-handle', { handle: '@ada', amount, reference });
    await post('/v1/charges/dispatch', {
      reference,
      bankId: resolved.data.linkedBanks[0]!.bankId,
      authChannel: 'wallet_push',
    });
    await post(`/_sandbox/charges/${reference}/authorize`, {});
  }
});
afterAll(() => {
  stopSandbox();
  app?.remove();
  removePacked();
});

function wallet(...args: string[]) {
  return spawnSync(join(app.dir, 'node_modules', '.bin', 'wallet'), args, {
    cwd: app.dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, WALLET_SECRET_KEY: KEY, WALLET_BASE_URL: baseUrl },
  });
}

it('the packed wallet bin reconciles a ledger against the packed wallet-sandbox', () => {
  const doctor = wallet('doctor');
  expect(doctor.stdout).toContain('All checks passed.');
  const ran = wallet('reconcile', 'orders.csv', '--amount-unit', 'naira');
  expect(ran.status).toBe(1);
  expect(ran.stdout).toMatch(/paid_not_recorded\s+1/);
  const report = readFileSync(join(app.dir, 'orders.report.csv'), 'utf8');
  expect(
    report
      .split('\n')
      .slice(1, 4)
      .map((l) => l.split(',')[2]),
  ).toEqual(['match', 'paid_not_recorded', 'unknown_reference']);
  const version = wallet('--version');
  const manifest = JSON.parse(
    readFileSync(new URL('../../packages/cli/package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  expect(version.stdout.trim()).toBe(manifest.version);
});
