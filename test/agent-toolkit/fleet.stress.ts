/**
 * A fleet: two `wallet-mcp` processes sharing one real redis-server ledger, 200 concurrent refunds
 * between them (each previewed, then confirmed) against one daily limit. The total refunded never
 * passes the limit, and equals what the ledger says.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';

import { startRedis, type RedisServer } from '../redis/server.js';
import { startMcp, startSandbox, type McpSession, type SandboxProcess } from './processes.js';
import { TEST_KEY } from './setup.js';

const DAILY_REFUNDS = 2_000_000;
const CHARGES = 20;
const CHARGE_AMOUNT = 1_000_000;

let redis: RedisServer;
let sandbox: SandboxProcess;
let fleet: McpSession[] = [];
beforeAll(async () => {
  [redis, sandbox] = await Promise.all([startRedis(), startSandbox()]);
  const env = {
    WALLET_SECRET_KEY: TEST_KEY,
    WALLET_BASE_URL: sandbox.url,
    WALLET_MCP_ALLOW: 'refund_charge',
    WALLET_MCP_LIMIT_DAILY_REFUNDS: String(DAILY_REFUNDS),
    WALLET_MCP_REDIS_URL: redis.url,
  };
  fleet = await Promise.all([startMcp(env), startMcp(env)]);
  const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.url });
  for (let i = 0; i < CHARGES; i++) {
    const reference = `fleet_${i}`;
    await wallet.charges.resolveHandle({ handle: '@tunde', amount: CHARGE_AMOUNT, reference });
    await wallet.charges.dispatch({ reference, bankId: 'bnk_tunde_zenith', authChannel: 'wallet_push' });
    await sandbox.authorize(reference);
  }
  await wallet.close();
}, 120_000);
afterAll(async () => {
  await Promise.all(fleet.map((mcp) => mcp.close()));
  await sandbox?.stop();
  await redis?.stop();
});

describe('two wallet-mcp processes on one Redis ledger', () => {
  it('never refund more than the daily limit between them, and the ledger says exactly what was refunded', async () => {
    // 200 refunds of 10 000 to 19 900 Kobo, ten per charge: about ₦29,900 asked against a ₦20,000 day.
    const asks = Array.from({ length: 200 }, (_, i) => ({
      reference: `fleet_${i % CHARGES}`,
      amount: 10_000 + ((i * 37) % 100) * 100,
    }));
    const results = await Promise.all(
      asks.map(async (args, i) => {
        const mcp = fleet[i % 2]!;
        const preview = await mcp.call('refund_charge', args);
        if (preview.isError) return preview;
        return mcp.call('refund_charge', { ...args, confirmationToken: preview.data.confirmationToken });
      }),
    );
    const done = results.filter((r) => !r.isError);
    const refusals = results.filter((r) => r.isError);
    expect(
      refusals.every((r) => /limit 'dailyRefunds'/.test(r.text)),
      refusals.map((r) => r.text).join('\n'),
    ).toBe(true);
    const response = await fetch(`${sandbox.url}/_sandbox/state`);
    const state = (await response.json()) as { data: { refunds: { amount: number }[] } };
    const refunded = state.data.refunds.reduce((sum, r) => sum + r.amount, 0);
    expect(refunded).toBeLessThanOrEqual(DAILY_REFUNDS);
    expect(refunded).toBe(done.reduce((sum, r) => sum + (r.data.amount.kobo as number), 0));
    expect(state.data.refunds.length).toBe(done.length);
    expect(refusals.length).toBeGreaterThan(0);
    const client = createClient({ url: redis.url });
    await client.connect();
    const keys = await client.keys('wallet:agent:refunds:*');
    expect(keys).toHaveLength(1);
    expect(Number(await client.get(keys[0]!))).toBe(refunded);
    await client.quit();
    console.log(
      `fleet: ${done.length} refunds (${refunded} Kobo) done, ${refusals.length} refused; limit ${DAILY_REFUNDS}`,
    );
  });
});
