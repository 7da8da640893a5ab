/**
 * The claim lease on a real redis-server, through both common clients: renewed while a slow
 * `onEvent` runs, so a second process's delivery of the same event is held off (503) for as long as
 * it runs, never run twice; and a Redis that goes away mid-event ends that delivery in 503. Driven
 * by the store's own renewals (events), with the shortest lease the store takes (1 s).
 */
import { describe, expect, test } from 'vitest';

import { createWebhookHandler, redisDedupeStore } from '../../src/webhooks.js';
import type { WebhookDedupeStore, WebhookErrorContext } from '../../src/webhooks.js';
import { FLEET_SECRET } from '../redis/fleet-protocol.js';
import { delivery } from '../redis/fleet.js';
import { useRedis } from '../redis/clients.js';
import { startRedis } from '../redis/server.js';

const redis = useRedis();
const connect = redis.connect.bind(redis);

/** `store` with its renewals observable: `renewed(n)` resolves once n renewals were answered. */
function observed(store: WebhookDedupeStore) {
  const answers: (boolean | Error)[] = [];
  const waiting: [(answer: boolean | Error) => boolean, () => void][] = [];
  const record = (answer: boolean | Error): void => {
    answers.push(answer);
    for (const [test, resolve] of waiting) if (test(answer)) resolve();
  };
  const observedStore: WebhookDedupeStore = {
    ...store,
    claim: (id) => store.claim(id),
    done: (id, token) => store.done(id, token),
    release: (id, token) => store.release(id, token),
    renew: async (id, token) => {
      try {
        const held = await store.renew!(id, token);
        record(held);
        return held;
      } catch (error) {
        record(error as Error);
        throw error;
      }
    },
  };
  const when = (test: (answer: boolean | Error) => boolean): Promise<void> =>
    new Promise((resolve) => waiting.push([test, resolve]));
  let held = 0;
  const renewed = (n: number): Promise<void> => when((a) => a === true && ++held >= n);
  const failed = (): Promise<void> => when((a) => a instanceof Error);
  return { store: observedStore, answers, renewed, failed };
}

function handlerOn(store: WebhookDedupeStore, onEvent: () => unknown) {
  const errors: [unknown, WebhookErrorContext][] = [];
  const handler = createWebhookHandler({
    secret: FLEET_SECRET,
    dedupe: store,
    onError: (e, c) => void errors.push([e, c]),
    onEvent,
  });
  const send = async (reference: string): Promise<number> => {
    const { body, signature } = delivery(reference);
    const request = new Request('https://m.example/', {
      method: 'POST',
      headers: { 'x-wallet-signature': signature },
      body,
    });
    return (await handler(request)).status;
  };
  return { send, errors };
}

/** An onEvent that waits for `open()` on its first run, and counts runs. */
function gated() {
  let runs = 0;
  let open: () => void = () => undefined;
  let begin: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const started = new Promise<void>((resolve) => (begin = resolve));
  const onEvent = async (): Promise<void> => {
    runs += 1;
    begin();
    if (runs === 1) await gate;
  };
  return { onEvent, started, open: () => open(), runs: () => runs };
}

describe.each(['redis', 'ioredis'] as const)('the claim lease with the %s client', (kind) => {
  test('an onEvent running two leases long: another process delivering the event meanwhile gets 503; it runs once', async () => {
    const work = gated();
    const slow = observed(
      redisDedupeStore(await connect(kind), { prefix: `lease-${kind}:`, claimTtl: 1_000 }),
    );
    const other = redisDedupeStore(await connect(kind), { prefix: `lease-${kind}:`, claimTtl: 1_000 });
    const first = handlerOn(slow.store, work.onEvent);
    const second = handlerOn(other, work.onEvent);
    const answer = first.send('order_slow');
    await work.started;
    await slow.renewed(7); // every third of the lease: past two whole leases
    expect(await second.send('order_slow')).toBe(503);
    expect(work.runs()).toBe(1);
    work.open();
    expect(await answer).toBe(200);
    expect(await second.send('order_slow')).toBe(200);
    expect(work.runs()).toBe(1);
    expect(slow.answers.every((a) => a === true)).toBe(true);
  });

  test('Redis gone while onEvent runs: the renewal fails and the delivery is answered 503', async () => {
    const down = await startRedis();
    const work = gated();
    const store = observed(
      redisDedupeStore(await connect(kind, down.url), { prefix: 'gone:', claimTtl: 1_000, timeout: 300 }),
    );
    const { send, errors } = handlerOn(store.store, work.onEvent);
    const answer = send('order_gone');
    await work.started;
    await down.stop();
    await store.failed();
    work.open();
    expect(await answer).toBe(503);
    expect(work.runs()).toBe(1);
    expect(errors.map(([e, c]) => [(e as { code?: string }).code, c.status])).toEqual([
      ['webhook_dedupe_lease_lost', 503],
    ]);
  });
});
