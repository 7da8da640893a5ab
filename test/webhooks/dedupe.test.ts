/**
 * The handlers' `dedupe` option with `memoryDedupeStore`, and with stores that fail: what a merchant
 * observes in statuses, `onEvent` runs and `onError` reports.
 */
import type { Server } from 'node:http';

import { afterEach, describe, expect, test, vi } from 'vitest';

import { createNodeWebhookHandler, createWebhookHandler, memoryDedupeStore } from '../../src/webhooks.js';
import type {
  WebhookDedupeStore,
  WebhookErrorContext,
  WebhookEvent,
  WebhookHandlerOptions,
} from '../../src/webhooks.js';
import { SECRET, close, hmacHex, listen } from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map(close));
});

/** Moves `Date.now()` on by `ms` (the stores' clock) without touching timers or sockets. */
function later(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const chargeBody = (reference: string, spacing?: number) =>
  JSON.stringify(
    { event: 'charge.success', data: { reference, amount: 1_000, customer: { handle: '@ada' } } },
    null,
    spacing,
  );

type Send = (body: string) => Promise<number>;

interface Rig {
  send: Send;
  runs: WebhookEvent[];
  errors: [unknown, WebhookErrorContext][];
}

/** Options with `dedupe` whose onEvent runs `work` and records the event, and where it records. */
function recorded(store: WebhookDedupeStore, work?: () => unknown) {
  const runs: WebhookEvent[] = [];
  const errors: [unknown, WebhookErrorContext][] = [];
  const options: WebhookHandlerOptions = {
    secret: SECRET,
    dedupe: store,
    onError: (e, c) => void errors.push([e, c]),
    onEvent: async (event) => {
      await work?.();
      runs.push(event);
    },
  };
  return { options, runs, errors };
}

const signed = (body: string) => ({
  method: 'POST',
  body,
  headers: { 'x-wallet-signature': hmacHex(body, SECRET) },
});

/** A handler of each kind with `dedupe`, and how to send it a delivery. */
const rigs: [string, (store: WebhookDedupeStore, work?: () => unknown) => Promise<Rig>][] = [
  [
    'createWebhookHandler (Fetch)',
    async (store, work) => {
      const { options, runs, errors } = recorded(store, work);
      const handler = createWebhookHandler(options);
      const send: Send = async (body) =>
        (await handler(new Request('https://m.example/', signed(body)))).status;
      return { send, runs, errors };
    },
  ],
  [
    'createNodeWebhookHandler over HTTP',
    async (store, work) => {
      const { options, runs, errors } = recorded(store, work);
      const handler = createNodeWebhookHandler(options);
      const { url, server } = await listen((req, res) => void handler(req, res));
      servers.push(server);
      const send: Send = async (body) => (await fetch(url, signed(body))).status;
      return { send, runs, errors };
    },
  ],
];

describe.each(rigs)('%s with memoryDedupeStore', (_, rig) => {
  test('10 concurrent deliveries of one event: onEvent runs once; the others get 503, and 200 once it is done', async () => {
    const { send, runs, errors } = await rig(memoryDedupeStore(), () => sleep(300));
    const statuses = await Promise.all(Array.from({ length: 10 }, () => send(chargeBody('order_1'))));
    expect(runs).toHaveLength(1);
    const busy = statuses.filter((s) => s === 503).length;
    // Deliveries arriving while it runs are held off; any arriving after it is done get 200.
    expect(busy).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10 - busy);
    expect(errors.map(([e, c]) => [(e as { code?: string }).code, c.status])).toEqual(
      Array.from({ length: busy }, () => ['webhook_event_in_progress', 503]),
    );
    expect(await send(chargeBody('order_1'))).toBe(200); // the redelivery, after done
    expect(runs).toHaveLength(1);
  });

  test('a charge.success is the same event whatever its bytes: identity is the kind and reference', async () => {
    const { send, runs } = await rig(memoryDedupeStore());
    expect(await send(chargeBody('order_2'))).toBe(200);
    expect(await send(chargeBody('order_2', 2))).toBe(200);
    expect(await send(chargeBody('order_3'))).toBe(200);
    expect(runs.map((e) => (e.data as { reference: string }).reference)).toEqual(['order_2', 'order_3']);
  });

  test('an unknown kind is identified by its body: the same bytes once, different bytes each', async () => {
    const { send, runs } = await rig(memoryDedupeStore());
    const body = JSON.stringify({ event: 'refund.processed', data: { id: 'r_1' } });
    const other = JSON.stringify({ event: 'refund.processed', data: { id: 'r_2' } });
    expect([await send(body), await send(body), await send(other)]).toEqual([200, 200, 200]);
    expect(runs).toHaveLength(2);
  });

  test('a failed onEvent answers 500 and releases the claim, so the redelivery runs it', async () => {
    let attempt = 0;
    const { send, runs, errors } = await rig(memoryDedupeStore(), () => {
      if (++attempt === 1) throw new Error('database down');
    });
    expect(await send(chargeBody('order_4'))).toBe(500);
    expect(errors[0]?.[1]).toEqual({ status: 500 });
    expect(await send(chargeBody('order_4'))).toBe(200);
    expect(await send(chargeBody('order_4'))).toBe(200);
    expect(attempt).toBe(2);
    expect(runs).toHaveLength(1);
  });

  test('a done mark lasts ttl (given alone): after it the event runs again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { send, runs } = await rig(memoryDedupeStore({ ttl: 60_000 }));
    expect(await send(chargeBody('order_5'))).toBe(200);
    later(59_000);
    expect(await send(chargeBody('order_5'))).toBe(200);
    expect(runs).toHaveLength(1);
    later(1_001);
    expect(await send(chargeBody('order_5'))).toBe(200);
    expect(runs).toHaveLength(2);
  });
});

describe('memoryDedupeStore claims', () => {
  test('a claim never settled (a crashed handler) expires after claimTtl', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    expect((await store.claim('a')).status).toBe('claimed');
    later(999);
    expect(await store.claim('a')).toEqual({ status: 'busy' });
    later(1);
    expect((await store.claim('a')).status).toBe('claimed');
  });

  test('release with a stale token leaves the current claim alone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const first = await store.claim('b');
    later(1_000);
    const second = await store.claim('b');
    expect(second.status).toBe('claimed');
    if (first.status === 'claimed') await store.release('b', first.token);
    expect(await store.claim('b')).toEqual({ status: 'busy' });
  });
});

describe('a dedupe store that fails', () => {
  const store = (overrides: Partial<WebhookDedupeStore>): WebhookDedupeStore => ({
    ...memoryDedupeStore(),
    ...overrides,
  });

  test.each([
    ['claim rejects', { claim: () => Promise.reject(new Error('ECONNREFUSED')) }],
    [
      'claim throws',
      {
        claim: () => {
          throw new Error('closed');
        },
      },
    ],
    ['claim resolves to something else', { claim: () => Promise.resolve({ status: 'claimed' }) }],
  ] as [string, Partial<WebhookDedupeStore>][])(
    '%s: 503 (the service delivers again), and onEvent never runs unguarded',
    async (__, overrides) => {
      const { send, runs, errors } = await rigs[0]![1](store(overrides));
      expect(await send(chargeBody('order_6'))).toBe(503);
      expect(runs).toEqual([]);
      expect((errors[0]?.[0] as { code?: string }).code).toBe('webhook_dedupe_unavailable');
    },
  );

  test('done rejects after onEvent succeeded: 200 (a 500 would run it twice), and onError is told', async () => {
    const { send, runs, errors } = await rigs[0]![1](
      store({ done: () => Promise.reject(new Error('READONLY')) }),
    );
    expect(await send(chargeBody('order_7'))).toBe(200);
    expect(runs).toHaveLength(1);
    expect(errors.map(([e, c]) => [(e as { code?: string }).code, c.status])).toEqual([
      ['webhook_dedupe_not_recorded', 200],
    ]);
  });

  test('release rejects after onEvent failed: still 500, both failures reported', async () => {
    const { send, errors } = await rigs[0]![1](
      store({ release: () => Promise.reject(new Error('down')) }),
      () => {
        throw new Error('onEvent failed');
      },
    );
    expect(await send(chargeBody('order_8'))).toBe(500);
    expect(errors.map(([, c]) => c.status)).toEqual([500, 500]);
  });
});
