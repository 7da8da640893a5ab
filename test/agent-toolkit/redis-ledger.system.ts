/**
 * The Redis spend ledger against a real redis-server, through both client packages: one atomic
 * check-and-add (concurrent reservations never pass the limit), the day in the merchant's time
 * zone, amounts given back, one-time tokens shared by every process on the same Redis.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '@wallet/node';

import { redisSpendLedger, type SpendLedger } from '../../packages/agent-toolkit/src/index.js';
import { caught } from '../helpers/caught.js';
import { startRedis, type RedisServer } from '../redis/server.js';

let server: RedisServer;
let node: ReturnType<typeof createClient>;
let io: Redis;
beforeAll(async () => {
  server = await startRedis();
  node = createClient({ url: server.url });
  await node.connect();
  io = new Redis(server.url);
});
afterAll(async () => {
  await node.quit();
  io.disconnect();
  await server.stop();
});

const clock = { now: Date.parse('2026-11-24T22:30:00Z') };
let prefixes = 0;

function ledgers(): [SpendLedger, SpendLedger] {
  const prefix = `test${prefixes++}:`;
  const options = { prefix, now: () => clock.now };
  return [redisSpendLedger(node, options), redisSpendLedger(io, options)];
}

describe('redisSpendLedger', () => {
  it('never lets concurrent reservations from two clients pass the daily limit', async () => {
    const [a, b] = ledgers();
    const amounts = Array.from({ length: 200 }, (_, i) => 1_000 + ((i * 7919) % 9_000));
    const results = await Promise.all(
      amounts.map((amount, i) => (i % 2 ? a : b).reserve('refunds', amount, 300_000)),
    );
    const accepted = amounts.filter((_, i) => results[i]!.ok).reduce((sum, x) => sum + x, 0);
    expect(accepted).toBeLessThanOrEqual(300_000);
    expect(accepted).toBeGreaterThan(290_000);
    expect(await a.total('refunds')).toBe(accepted);
    expect(await b.total('refunds')).toBe(accepted);
  });

  it("counts the day in the merchant's time zone, and gives amounts back on the day they were counted", async () => {
    const [a] = ledgers();
    clock.now = Date.parse('2026-11-24T22:30:00Z'); // 23:30 in Lagos
    const late = await a.reserve('charges', 400, 1_000);
    expect(late).toMatchObject({ ok: true, day: '2026-11-24', total: 400 });
    clock.now = Date.parse('2026-11-24T23:30:00Z'); // 00:30 the next day in Lagos
    expect(await a.reserve('charges', 900, 1_000)).toMatchObject({ ok: true, day: '2026-11-25', total: 900 });
    await a.release('charges', late.day, 400);
    expect(await a.total('charges', '2026-11-24')).toBe(0);
    expect(await a.total('charges')).toBe(900);
    expect(await a.reserve('charges', 101, 1_000)).toMatchObject({ ok: false, total: 900 });
    const utc = redisSpendLedger(node, {
      prefix: `test${prefixes++}:`,
      timeZone: 'UTC',
      now: () => clock.now,
    });
    expect((await utc.reserve('charges', 1, undefined)).day).toBe('2026-11-24');
    expect(() => redisSpendLedger(node, { timeZone: 'Lagos' })).toThrow(/not an IANA time zone/);
  });

  it('lets a token be claimed once across clients, and once more only after an unknown outcome', async () => {
    const [a, b] = ledgers();
    const claims = await Promise.all([
      a.claim('wct_x', 60_000),
      b.claim('wct_x', 60_000),
      a.claim('wct_x', 60_000),
    ]);
    expect(claims.map((c) => c.state).sort()).toEqual(['fresh', 'used', 'used']);
    const hold = { kind: 'refunds' as const, day: '2026-11-25', amount: 500 };
    await a.settle('wct_x', hold, 60_000);
    expect(await b.claim('wct_x', 60_000)).toEqual({ state: 'retry', hold });
    expect(await a.claim('wct_x', 60_000)).toEqual({ state: 'used' });
  });

  it('refuses a client that is neither redis nor ioredis, as the SDK does, under its own name', () => {
    expect(() => redisSpendLedger({} as never)).toThrow(/redis \(createClient\) or ioredis/);
    const error = (() => {
      try {
        redisSpendLedger(42 as never);
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.message).toContain('redisSpendLedger client');
    expect(error?.issues[0]?.message).toContain('got 42');
  });

  it('refuses a call whose Redis does not answer within commandTimeout', async () => {
    vi.useFakeTimers();
    try {
      const silent = { sendCommand: () => new Promise<never>(() => undefined) };
      const ledger = redisSpendLedger(silent, { commandTimeout: 500 });
      const reserved = caught<Error>(ledger.reserve('charges', 100, 1_000));
      await vi.advanceTimersByTimeAsync(499);
      let settled = false;
      void reserved.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await reserved)?.message).toBe("The spend ledger's Redis did not answer EVAL within 500 ms.");
    } finally {
      vi.useRealTimers();
    }
  });
});
