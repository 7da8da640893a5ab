/**
 * The Redis spend ledger against a real redis-server (system stage), through both client packages:
 * the ledger contract every store keeps, the time zone stored in Redis and a mismatch refused, and
 * a command Redis does not answer refused in time.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '@wallet/node';

import { redisSpendLedger } from '../../packages/agent-toolkit/src/index.js';
import { ledgerContract, request } from './ledger-contract.js';
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

let prefixes = 0;

describe('redisSpendLedger', () => {
  ledgerContract((clock) => {
    const options = { prefix: `test${prefixes++}:`, now: () => clock.now };
    return [redisSpendLedger(node, options), redisSpendLedger(io, options)];
  });

  it('reads its journal through a node-redis client as through ioredis (HGETALL answers an object there)', async () => {
    const options = { prefix: `test${prefixes++}:`, now: () => Date.parse('2026-11-24T12:00:00Z') };
    const [viaNode, viaIo] = [redisSpendLedger(node, options), redisSpendLedger(io, options)];
    await viaNode.begin(request(7_000, { key: 'j1', reference: 'jr_1' }));
    await viaNode.finish('j1', 'unknown');
    const expected = [expect.objectContaining({ key: 'j1', state: 'unknown', amount: 7_000 })];
    // wallet-mcp's client: get_charge listed no refund, and a refund in doubt was not found to repeat.
    expect(await viaNode.journal('jr_1')).toEqual(expected);
    expect(await viaIo.journal('jr_1')).toEqual(expected);
  });

  it('stores its time zone and refuses a process configured with another (time_zone_mismatch)', async () => {
    const prefix = `test${prefixes++}:`;
    await redisSpendLedger(node, { prefix }).total('refunds');
    await redisSpendLedger(node, { prefix }).begin(request(1));
    const utc = redisSpendLedger(io, { prefix, timeZone: 'UTC' });
    expect(await caught(utc.begin(request(1)))).toMatchObject({ code: 'time_zone_mismatch' });
    expect(() => redisSpendLedger(node, { timeZone: 'Lagos' })).toThrow(/not an IANA time zone/);
  });

  it('gives an amount back after its day total expired without leaving a total that never expires', async () => {
    const prefix = `test${prefixes++}:`;
    const ledger = redisSpendLedger(node, { prefix, now: () => Date.parse('2026-11-24T12:00:00Z') });
    const begun = await ledger.begin(request(5_000, { kind: 'charges', limit: 10_000 }));
    if (begun.state !== 'begun') throw new Error('not begun');
    await node.sendCommand(['DEL', `${prefix}charges:2026-11-24`]);
    await ledger.finish(begun.entry.key, 'failed');
    expect(await ledger.total('charges', '2026-11-24')).toBe(0);
    const ttl = Number(await node.sendCommand(['TTL', `${prefix}charges:2026-11-24`]));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3 * 86_400);
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
      const reserved = caught<Error>(ledger.begin(request(100)));
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
