/**
 * The toolkit against a lossy, lying network: a listening sandbox behind a proxy of our own that
 * drops, holds, rewrites or fails answers after the sandbox acted. For each scenario the money the
 * sandbox really moved is counted against what the ledger says: they agree, within the limit.
 * ADVERSARY_TABLE=1 prints the figures.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';
import { createSandbox, type Sandbox, type SandboxServer } from '@wallet/node/testing';

import {
  memorySpendLedger,
  sqliteSpendLedger,
  walletTools,
  type SpendLedger,
  type WalletTool,
} from '../../packages/agent-toolkit/src/index.js';
import { HAS_SQLITE, ledgerFile } from './processes.js';
import { startProxy, type Action, type Proxy, type Seen } from './proxy.js';
import { TEST_KEY } from './setup.js';

const LIMIT = 150_000;
let sandbox: Sandbox;
let server: SandboxServer;
let proxy: Proxy;
let direct: Wallet;
let wallet: Wallet;
const rows: { scenario: string; moved: number; counted: number; limit: number }[] = [];

beforeAll(async () => {
  sandbox = createSandbox();
  server = await sandbox.listen();
  proxy = await startProxy(server.url);
  direct = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
  // A timeout no answer on loopback reaches, even on a busy machine: only a held answer meets it.
  wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: proxy.url, maxRetries: 0, timeout: 2000 });
});
afterAll(async () => {
  if (process.env['ADVERSARY_TABLE']) {
    const ledger = HAS_SQLITE ? 'sqlite' : 'memory';
    console.log(
      `\nscenario | sandbox moved | ledger counts | limit   (${ledger} ledger, ${process.version})`,
    );
    for (const row of rows) console.log(`${row.scenario} | ${row.moved} | ${row.counted} | ${row.limit}`);
  }
  await wallet.close();
  await proxy.close();
  await server.close();
});

async function paid(reference: string, amount: number): Promise<void> {
  const resolved = await direct.charges.resolveHandle({ handle: '@ada', amount, reference });
  await direct.charges.dispatch({
    reference,
    bankId: resolved.linkedBanks[0]!.bankId,
    authChannel: 'wallet_push',
  });
  await sandbox.authorize(reference);
}

function setup(confirm: boolean): { tools: Record<string, WalletTool>; ledger: SpendLedger } {
  const ledger = HAS_SQLITE ? sqliteSpendLedger({ path: ledgerFile() }) : memorySpendLedger();
  const list = walletTools({
    wallet,
    ledger,
    allow: ['refund_charge', 'dispatch_charge'],
    confirm,
    limits: { dailyRefunds: LIMIT, dailyCharges: LIMIT },
  });
  return { tools: Object.fromEntries(list.map((t) => [t.name, t])), ledger };
}

/** Applies `action` to the first `count` requests `match` accepts, then passes. */
function fault(match: (seen: Seen) => boolean, action: Action, count = 1): void {
  let left = count;
  proxy.plan = (seen) => (match(seen) && left-- > 0 ? action : { kind: 'pass' });
}
const refundPost = (seen: Seen) => seen.method === 'POST' && seen.path.endsWith('/v1/refunds');
const verifyGet = (seen: Seen) => seen.path.includes('/v1/charges/verify/');

async function refundedFor(prefix: string): Promise<number> {
  return sandbox.refunds.filter((x) => x.reference.startsWith(prefix)).reduce((s, x) => s + x.amount, 0);
}

async function record(scenario: string, prefix: string, ledger: SpendLedger, kind: 'refunds' | 'charges') {
  const moved =
    kind === 'refunds'
      ? await refundedFor(prefix)
      : [...sandbox.charges]
          .filter((c) => c.reference.startsWith(prefix) && c.status !== 'RESOLVED' && c.status !== 'FAILED')
          .reduce((s, c) => s + c.amount, 0);
  const counted = await ledger.total(kind);
  rows.push({ scenario, moved, counted, limit: LIMIT });
  expect(counted, scenario).toBe(moved);
  expect(moved, scenario).toBeLessThanOrEqual(LIMIT);
}

async function confirmed(tool: WalletTool, args: Record<string, unknown>) {
  const preview = await tool.execute(args);
  return tool.execute({ ...args, confirmationToken: preview.data!['confirmationToken'] });
}

it('a refund answer lost after the refund, confirmation off: the same call again refunds nothing more', async () => {
  await paid('a1', 100_000);
  const { tools, ledger } = setup(false);
  fault(refundPost, { kind: 'drop' });
  expect((await tools['refund_charge']!.execute({ reference: 'a1', amount: 60_000 })).text).toContain(
    'OUTCOME UNKNOWN',
  );
  expect((await tools['refund_charge']!.execute({ reference: 'a1', amount: 60_000 })).isError).toBe(false);
  await record('answer lost, confirm off, repeated', 'a1', ledger, 'refunds');
});

it('a refund answer lost, confirmation on: a new preview confirmed refunds nothing more', async () => {
  await paid('b1', 100_000);
  const { tools, ledger } = setup(true);
  fault(refundPost, { kind: 'drop' });
  expect((await confirmed(tools['refund_charge']!, { reference: 'b1' })).text).toContain('OUTCOME UNKNOWN');
  expect((await confirmed(tools['refund_charge']!, { reference: 'b1' })).isError).toBe(false);
  await record('answer lost, confirm on, new preview', 'b1', ledger, 'refunds');
});

it('a refund answer held past the client timeout: counted, and the repeat refunds nothing more', async () => {
  await paid('c1', 100_000);
  const { tools, ledger } = setup(false);
  fault(refundPost, { kind: 'hold' });
  expect((await tools['refund_charge']!.execute({ reference: 'c1', amount: 90_000 })).text).toContain(
    'OUTCOME UNKNOWN',
  );
  expect(await ledger.total('refunds')).toBe(90_000);
  expect((await tools['refund_charge']!.execute({ reference: 'c1', amount: 90_000 })).isError).toBe(false);
  await record('answer held past timeout, repeated', 'c1', ledger, 'refunds');
});

it('a verify that lies low or high: a full refund sends only what the toolkit counted', async () => {
  await paid('d1', 100_000);
  await paid('d2', 100_000);
  const { tools, ledger } = setup(false);
  fault(verifyGet, { kind: 'rewrite', edit: (d) => (d['amount'] = 30_000) });
  expect((await tools['refund_charge']!.execute({ reference: 'd1' })).isError).toBe(false);
  fault(verifyGet, { kind: 'rewrite', edit: (d) => (d['amount'] = 10_000_000) });
  const high = await tools['refund_charge']!.execute({ reference: 'd2' });
  expect(high.data).toMatchObject({ refusedBy: 'dailyRefunds' });
  await record('verify lies (low, then high), full refunds', 'd', ledger, 'refunds');
});

it('a verify in another currency: no Naira amount claimed, and a full refund neither sent nor counted', async () => {
  await paid('h1', 100_000);
  const { tools, ledger } = setup(false);
  fault(verifyGet, { kind: 'rewrite', edit: (d) => (d['currency'] = 'USD') }, 2);
  const seen = await tools['get_charge']!.execute({ reference: 'h1' });
  expect(seen.text).not.toContain('₦1,000.00');
  expect(seen.text).toContain('"currency":"USD"');
  const refund = await tools['refund_charge']!.execute({ reference: 'h1' });
  expect(refund.data).toMatchObject({ refusedBy: 'currency' });
  expect(await refundedFor('h1')).toBe(0);
  await record('verify in another currency, full refund', 'h1', ledger, 'refunds');
});

it('a status named like a JavaScript built-in (constructor, toString) is told as one the toolkit does not know', async () => {
  await paid('k1', 100_000);
  const { tools } = setup(false);
  for (const status of ['constructor', 'toString', '__proto__']) {
    fault(verifyGet, { kind: 'rewrite', edit: (d) => (d['status'] = status) });
    const seen = await tools['get_charge']!.execute({ reference: 'k1' });
    expect(seen.text).toContain('a status this toolkit does not know');
    expect(seen.text).not.toMatch(/native code|\[object Object\]/);
  }
});

it('a refund answer for another amount, or a 502 after the refund: counted until the repeat proves it', async () => {
  await paid('e1', 100_000);
  await paid('e2', 100_000);
  const { tools, ledger } = setup(false);
  const refund = tools['refund_charge']!;
  fault(refundPost, { kind: 'rewrite', edit: (d) => (d['amount'] = 1) });
  expect((await refund.execute({ reference: 'e1', amount: 40_000 })).text).toContain('OUTCOME UNKNOWN');
  fault(refundPost, { kind: 'status', status: 502 });
  expect((await refund.execute({ reference: 'e2', amount: 50_000 })).text).toContain('OUTCOME UNKNOWN');
  expect(await ledger.total('refunds')).toBe(90_000);
  expect((await refund.execute({ reference: 'e1', amount: 40_000 })).isError).toBe(false);
  expect((await refund.execute({ reference: 'e2', amount: 50_000 })).isError).toBe(false);
  await record('mismatched answer and 502, repeated', 'e', ledger, 'refunds');
});

it('a dispatch answer lost: counted once across the repeat, and given back when the charge FAILED', async () => {
  const { tools, ledger } = setup(false);
  fault((s) => s.path.endsWith('/v1/charges/dispatch'), { kind: 'drop' });
  const args = { handle: '@ada', amount: 70_000, reference: 'f1', authChannel: 'wallet_push' };
  expect((await tools['dispatch_charge']!.execute(args)).text).toContain('OUTCOME UNKNOWN');
  expect((await tools['dispatch_charge']!.execute(args)).isError).toBe(false);
  await record('dispatch lost, repeated', 'f1', ledger, 'charges');
  await sandbox.decline('f1');
  await tools['get_charge']!.execute({ reference: 'f1' });
  await record('dispatch lost, repeated, then FAILED', 'f1', ledger, 'charges');
});

it('30 concurrent refunds with every third answer lost, each repeated: never past the daily limit', async () => {
  for (let i = 0; i < 10; i++) await paid(`g${i}`, 30_000);
  const { tools, ledger } = setup(false);
  let n = 0;
  proxy.plan = (seen) => (refundPost(seen) && n++ % 3 === 0 ? { kind: 'drop' } : { kind: 'pass' });
  const calls = Array.from({ length: 30 }, (_, i) => ({ reference: `g${i % 10}`, amount: 10_000 }));
  const first = await Promise.all(calls.map((args) => tools['refund_charge']!.execute(args)));
  proxy.plan = () => ({ kind: 'pass' });
  for (const [i, result] of first.entries()) {
    if (result.text.includes('OUTCOME UNKNOWN')) await tools['refund_charge']!.execute(calls[i]!);
  }
  await record('30 concurrent, every third answer lost, repeated', 'g', ledger, 'refunds');
});
