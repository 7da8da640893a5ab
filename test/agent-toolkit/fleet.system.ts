/**
 * A fleet on one real redis-server (system stage): two and four `wallet-mcp` processes refunding
 * at once never pass the daily limit, and the ledger says exactly what the sandbox refunded. Redis
 * frozen (SIGSTOP) or stopped and restarted mid-operation, or not up yet when wallet-mcp starts: the
 * server serves, nothing is sent while the ledger cannot answer, the token stays usable, and a
 * reconnect resumes.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';

import { freePort, startRedis, type RedisServer } from '../redis/server.js';
import { DAILY_REFUNDS, runFleet } from './fleet.js';
import { startMcp, startSandbox, type SandboxProcess } from './processes.js';
import { TEST_KEY } from './setup.js';

let redis: RedisServer;
let sandbox: SandboxProcess;
beforeAll(async () => {
  [redis, sandbox] = await Promise.all([startRedis(), startSandbox()]);
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
  await redis?.stop();
});

async function ledgerTotal(db: number): Promise<number> {
  const client = createClient({ url: `${redis.url}/${db}` });
  await client.connect();
  const keys = await client.keys('wallet:agent:refunds:*');
  const total = keys.length === 0 ? 0 : Number(await client.get(keys[0]!));
  await client.quit();
  return total;
}

describe('wallet-mcp processes on one Redis ledger', () => {
  for (const [processes, db] of [
    [2, 1],
    [4, 2],
  ] as const) {
    it(`${processes} processes never refund more than the daily limit between them`, async () => {
      const run = await runFleet(
        sandbox,
        { WALLET_MCP_REDIS_URL: `${redis.url}/${db}` },
        processes,
        `r${processes}`,
      );
      expect(
        run.refused.every((text) => /limit 'dailyRefunds'/.test(text)),
        run.refused.join('\n'),
      ).toBe(true);
      expect(run.refused.length).toBeGreaterThan(0);
      expect(run.refunded).toBeLessThanOrEqual(DAILY_REFUNDS);
      expect(run.refunded).toBe(run.told);
      expect(await ledgerTotal(db)).toBe(run.refunded);
      console.log(
        `redis fleet of ${processes}: ${run.done} refunds, ${run.refunded} Kobo; limit ${DAILY_REFUNDS}`,
      );
    }, 300_000);
  }
});

describe('wallet-mcp when Redis stalls or goes away', () => {
  it('stays up, sends nothing while the ledger cannot answer, and resumes', async () => {
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.url });
    for (const reference of ['stall_1', 'stall_2']) {
      await wallet.charges.resolveHandle({ handle: '@tunde', amount: 100_000, reference });
      await wallet.charges.dispatch({ reference, bankId: 'bnk_tunde_zenith', authChannel: 'wallet_push' });
      await sandbox.authorize(reference);
    }
    await wallet.close();
    const url = `${redis.url}/3`;
    const mcp = await startMcp({
      WALLET_SECRET_KEY: TEST_KEY,
      WALLET_BASE_URL: sandbox.url,
      WALLET_MCP_ALLOW: 'refund_charge',
      WALLET_MCP_LIMIT_DAILY_REFUNDS: '1000000',
      WALLET_MCP_REDIS_URL: url,
    });
    const refunds = async () =>
      (await sandbox.requests()).filter((line) => line === 'POST /v1/refunds').length;
    try {
      const args = { reference: 'stall_1', amount: 10_000 };
      const preview = await mcp.call('refund_charge', args);
      const before = await refunds();
      redis.freeze();
      const stalled = await mcp.call('refund_charge', {
        ...args,
        confirmationToken: preview.data.confirmationToken,
      });
      expect(stalled.isError).toBe(true);
      expect(stalled.text).toContain('No money was moved');
      expect(await refunds()).toBe(before);
      redis.thaw();
      // The token was not spent by the stall: the same confirmation goes through, once.
      const done = await mcp.call('refund_charge', {
        ...args,
        confirmationToken: preview.data.confirmationToken,
      });
      expect(done.isError, done.text).toBe(false);
      expect(await refunds()).toBe(before + 1);

      await redis.stop();
      const gone = await mcp.call('refund_charge', { reference: 'stall_2', amount: 10_000 });
      expect(gone.isError).toBe(true);
      expect(await refunds()).toBe(before + 1);
      redis = await startRedis(redis.port);
      let back = gone;
      for (let i = 0; i < 20 && back.isError; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        back = await mcp.call('refund_charge', { reference: 'stall_2', amount: 10_000 });
      }
      expect(back.data.preview, back.text).toBe(true);
      expect(mcp.stderr()).toContain('wallet-mcp: redis:');
    } finally {
      await mcp.close();
    }
  }, 120_000);

  it('starts while Redis cannot be reached yet: serves, sends no money until Redis is up, then resumes', async () => {
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.url });
    await wallet.charges.resolveHandle({ handle: '@tunde', amount: 100_000, reference: 'down_1' });
    await wallet.charges.dispatch({
      reference: 'down_1',
      bankId: 'bnk_tunde_zenith',
      authChannel: 'wallet_push',
    });
    await sandbox.authorize('down_1');
    await wallet.close();
    const port = await freePort();
    // A host gives up on a server that does not answer its initialize (60 s by default).
    const mcp = await Promise.race([
      startMcp({
        WALLET_SECRET_KEY: TEST_KEY,
        WALLET_BASE_URL: sandbox.url,
        WALLET_MCP_ALLOW: 'refund_charge',
        WALLET_MCP_CONFIRM: 'none',
        WALLET_MCP_REDIS_URL: `redis://127.0.0.1:${port}/4`,
      }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('wallet-mcp did not answer initialize within 15 s')), 15_000),
      ),
    ]);
    const refunds = async () =>
      (await sandbox.requests()).filter((line) => line === 'POST /v1/refunds').length;
    let late: RedisServer | undefined;
    try {
      const seen = await mcp.call('get_charge', { reference: 'down_1' });
      expect(seen.isError, seen.text).toBe(false);
      expect(seen.text).toContain('The spend ledger did not answer');
      const before = await refunds();
      const down = await mcp.call('refund_charge', { reference: 'down_1', amount: 10_000 });
      expect(down.isError).toBe(true);
      expect(down.text).toContain('No money was moved');
      expect(await refunds()).toBe(before);
      late = await startRedis(port);
      let back = down;
      for (let i = 0; i < 20 && back.isError; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        back = await mcp.call('refund_charge', { reference: 'down_1', amount: 10_000 });
      }
      expect(back.isError, back.text).toBe(false);
      expect(await refunds()).toBe(before + 1);
    } finally {
      await mcp.close();
      await late?.stop();
    }
  }, 120_000);

  it('journals nothing for a dispatch refused while Redis was away: once it is up, the same call is sent, not told in flight', async () => {
    const port = await freePort();
    const mcp = await startMcp({
      WALLET_SECRET_KEY: TEST_KEY,
      WALLET_BASE_URL: sandbox.url,
      WALLET_MCP_ALLOW: 'dispatch_charge',
      WALLET_MCP_CONFIRM: 'none',
      WALLET_MCP_REDIS_URL: `redis://127.0.0.1:${port}/5`,
    });
    const args = { handle: '@tunde', amount: 20_000, reference: 'down_2', authChannel: 'wallet_push' };
    let late: RedisServer | undefined;
    try {
      const down = await mcp.call('dispatch_charge', args);
      expect(down.isError).toBe(true);
      expect(down.text).toContain('No money was moved');
      late = await startRedis(port);
      // The client reconnects within its backoff; a step queued while Redis was away would land now.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const back = await mcp.call('dispatch_charge', args);
      expect(back.text).not.toContain('has no answer yet');
      expect(back.isError, back.text).toBe(false);
    } finally {
      await mcp.close();
      await late?.stop();
    }
  }, 120_000);
});
