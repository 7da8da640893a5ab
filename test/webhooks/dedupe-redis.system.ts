/**
 * `redisDedupeStore` against a real redis-server (started here on a free loopback port), through
 * both common clients: each event runs `onEvent` once across many handlers, a failure is released
 * for the redelivery, a dead worker's claim expires, a release never frees another's claim, and a
 * Redis that cannot be reached is answered 503 without running `onEvent`.
 */
import { describe, expect, test } from 'vitest';

import { createWebhookHandler, redisDedupeStore } from '../../src/webhooks.js';
import type { NodeRedisClientLike, WebhookEvent, WebhookDedupeStore } from '../../src/webhooks.js';
import { FLEET_SECRET } from '../redis/fleet-protocol.js';
import { Ledger, deliverAll, delivery, post, startFleet, stopFleet } from '../redis/fleet.js';
import type { Sender } from '../redis/fleet.js';
import { useRedis } from '../redis/clients.js';
import { startRedis } from '../redis/server.js';

const redis = useRedis();
const connect = redis.connect.bind(redis);

/** A Fetch handler on `store` whose onEvent counts runs per reference. */
function countingHandler(
  store: WebhookDedupeStore,
  runs: Map<string, number>,
  onEvent?: (e: WebhookEvent) => unknown,
) {
  return createWebhookHandler({
    secret: FLEET_SECRET,
    dedupe: store,
    onError: () => undefined,
    async onEvent(event) {
      if (event.event !== 'charge.success') return;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
      await onEvent?.(event);
      runs.set(event.data.reference, (runs.get(event.data.reference) ?? 0) + 1);
    },
  });
}

const requestFor = (reference: string): Request => {
  const { body, signature } = delivery(reference);
  return new Request('https://merchant.example/webhooks', {
    method: 'POST',
    headers: { 'x-wallet-signature': signature },
    body,
  });
};

describe.each(['redis', 'ioredis'] as const)('redisDedupeStore with the %s client', (kind) => {
  test('a failed onEvent releases its claim: the redelivery runs it; once done, deliveries get 200 without it', async () => {
    const store = redisDedupeStore(await connect(kind), { prefix: `release-${kind}:` });
    const runs = new Map<string, number>();
    let fail = true;
    const handler = countingHandler(store, runs, () => {
      if (fail) throw new Error('database down');
    });
    expect((await handler(requestFor('order_1'))).status).toBe(500);
    fail = false;
    expect((await handler(requestFor('order_1'))).status).toBe(200);
    expect((await handler(requestFor('order_1'))).status).toBe(200);
    expect(runs.get('order_1')).toBe(1);
  });

  test('references differing only in a lone surrogate stay two events (Redis would read both as U+FFFD)', async () => {
    const store = redisDedupeStore(await connect(kind), { prefix: `surrogate-${kind}:` });
    const runs = new Map<string, number>();
    const handler = countingHandler(store, runs);
    for (const reference of ['order_\ud800', 'order_\ud801', 'order_\ud800']) {
      expect((await handler(requestFor(reference))).status).toBe(200);
    }
    expect([...runs.values()]).toEqual([1, 1]);
  });

  test('a release by a slow worker whose claim expired leaves the new claim alone', async () => {
    const raw = await connect('redis');
    const slow = redisDedupeStore(await connect(kind), { prefix: `own-${kind}:` });
    const fast = redisDedupeStore(await connect(kind), { prefix: `own-${kind}:` });
    const first = await slow.claim('charge.success:order_2');
    expect(first.status).toBe('claimed');
    expect(await fast.claim('charge.success:order_2')).toEqual({ status: 'busy' });
    // The slow worker's claim expires: Redis's own expiry, brought forward.
    await (raw as NodeRedisClientLike).sendCommand(['PEXPIRE', `own-${kind}:charge.success:order_2`, '1']);
    while (
      (await (raw as NodeRedisClientLike).sendCommand(['EXISTS', `own-${kind}:charge.success:order_2`])) !== 0
    );
    const second = await fast.claim('charge.success:order_2');
    expect(second.status).toBe('claimed');
    if (first.status !== 'claimed') return;
    await slow.release('charge.success:order_2', first.token);
    expect(await slow.claim('charge.success:order_2')).toEqual({ status: 'busy' });
  });

  test('Redis unreachable: 503, and onEvent never runs', async () => {
    const down = await startRedis();
    const client = await connect(kind, down.url);
    const runs = new Map<string, number>();
    const handler = countingHandler(redisDedupeStore(client, { timeout: 300 }), runs);
    await down.stop();
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await handler(requestFor(`order_down_${i}`))).status);
    expect(statuses).toEqual([503, 503]);
    expect(runs.size).toBe(0);
  });

  test('Redis frozen (connected, never answering): 503 at the store timeout, and onEvent never runs', async () => {
    const frozen = await startRedis();
    const client = await connect(kind, frozen.url);
    const runs = new Map<string, number>();
    // Neither client times a command out by itself: only the store's timeout ends these deliveries.
    const handler = countingHandler(redisDedupeStore(client, { timeout: 300 }), runs);
    frozen.freeze();
    try {
      const statuses = [];
      for (let i = 0; i < 2; i++) statuses.push((await handler(requestFor(`order_frozen_${i}`))).status);
      expect(statuses).toEqual([503, 503]);
      expect(runs.size).toBe(0);
    } finally {
      frozen.thaw();
      await frozen.stop();
    }
  });
});

test('8 handlers on 8 separate clients (4 redis, 4 ioredis), 200 events delivered 3 times at once: onEvent ran exactly 200 times', async () => {
  const runs = new Map<string, number>();
  const senders: Sender[] = [];
  for (let i = 0; i < 8; i++) {
    const store = redisDedupeStore(await connect(i % 2 === 0 ? 'redis' : 'ioredis'), { prefix: 'many:' });
    const handler = countingHandler(store, runs);
    senders.push(async (reference) => (await handler(requestFor(reference))).status);
  }
  const references = Array.from({ length: 200 }, (_, i) => `order_many_${i}`);
  const statuses = await deliverAll(senders, references, { retryMs: 5 });
  expect([...runs.values()].reduce((a, b) => a + b, 0)).toBe(200);
  expect([...runs.values()].every((n) => n === 1)).toBe(true);
  expect(runs.size).toBe(200);
  expect(statuses[200]).toBe(600);
  // Duplicates did meet: some deliveries found their event held elsewhere and were answered 503.
  expect(statuses[503] ?? 0).toBeGreaterThan(0);
});

test('a worker process killed (SIGKILL) mid-event: its claim blocks the event until it expires, then the redelivery runs it', async () => {
  const ledger = new Ledger();
  const claimTtl = 1_000;
  const t0 = performance.now();
  const [[doomed], [healthy]] = await Promise.all([
    startFleet(redis.url, 1, ledger, { claimTtl, hang: 'order_crash' }),
    startFleet(redis.url, 1, ledger, { claimTtl }),
  ]);
  try {
    console.log('fleet of 2 ready in', Math.round(performance.now() - t0), 'ms');
    void post(doomed!.url, 'order_crash');
    await ledger.whenStarted('order_crash');
    const killedAt = performance.now();
    doomed!.child.kill('SIGKILL');
    expect(await post(healthy!.url, 'order_crash')).toBe(503); // claim still held
    let status = 0;
    while (status !== 200 && performance.now() - killedAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await post(healthy!.url, 'order_crash');
    }
    expect(status).toBe(200);
    console.log('redelivery handled', Math.round(performance.now() - killedAt), 'ms after the kill');
    expect(performance.now() - killedAt).toBeGreaterThan(claimTtl - 300);
    expect(ledger.ran.get('order_crash')).toBe(1);
    expect(await post(healthy!.url, 'order_crash')).toBe(200);
    expect(ledger.ran.get('order_crash')).toBe(1);
  } finally {
    await stopFleet([doomed!, healthy!]);
  }
});
