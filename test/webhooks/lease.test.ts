/**
 * A dedupe claim is a lease renewed while `onEvent` runs: a handler slower than the lease is never
 * run twice, and a lease that cannot be renewed answers 503 so the service delivers again. Fake
 * timers: the lease's renewals and expiry run on the test's clock, never the wall clock.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import { createWebhookHandler, memoryDedupeStore } from '../../src/webhooks.js';
import type { WebhookDedupeStore, WebhookErrorContext } from '../../src/webhooks.js';
import { SECRET, hmacHex } from './helpers.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const BODY = JSON.stringify({
  event: 'charge.success',
  data: { reference: 'order_slow', amount: 1_000, customer: { handle: '@ada' } },
});

/** A handler on `store` whose onEvent waits for `release()`, counting its runs. */
function slowHandler(store: WebhookDedupeStore) {
  let runs = 0;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let begin: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (begin = resolve));
  const errors: [unknown, WebhookErrorContext][] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    dedupe: store,
    onError: (e, c) => void errors.push([e, c]),
    async onEvent() {
      runs += 1;
      begin();
      if (runs === 1) await gate;
    },
  });
  const deliver = async (): Promise<number> =>
    (
      await handler(
        new Request('https://m.example/', {
          method: 'POST',
          body: BODY,
          headers: { 'x-wallet-signature': hmacHex(BODY, SECRET) },
        }),
      )
    ).status;
  // The first delivery, once its onEvent runs (the lease is held from then on).
  const deliverFirst = async (): Promise<{ answer: Promise<number> }> => {
    const answer = deliver();
    await started;
    return { answer };
  };
  return { deliver, deliverFirst, release: () => open(), runs: () => runs, errors };
}

describe('the claim lease while onEvent runs (memoryDedupeStore)', () => {
  test('an onEvent running five leases long is never run by a redelivery meanwhile', async () => {
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const renew = vi.spyOn(store, 'renew');
    const { deliver, deliverFirst, release, runs, errors } = slowHandler(store);
    const { answer: first } = await deliverFirst();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(renew.mock.calls.length).toBeGreaterThanOrEqual(14); // every third of the lease
    expect(await deliver()).toBe(503); // held: the redelivery comes again later
    expect(runs()).toBe(1);
    release();
    expect(await first).toBe(200);
    expect(await deliver()).toBe(200); // done: answered without running it
    expect(runs()).toBe(1);
    expect(errors.map(([e]) => (e as { code?: string }).code)).toEqual(['webhook_event_in_progress']);
  });

  test('renewing stops when onEvent ends: no timer is left behind', async () => {
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const renew = vi.spyOn(store, 'renew');
    const { deliverFirst, release } = slowHandler(store);
    const { answer: first } = await deliverFirst();
    await vi.advanceTimersByTimeAsync(1_000);
    release();
    expect(await first).toBe(200);
    const calls = renew.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(renew.mock.calls.length).toBe(calls);
    expect(vi.getTimerCount()).toBe(0);
  });

  test.each([
    ['rejects (the store is unreachable)', () => Promise.reject(new Error('ECONNREFUSED'))],
    ['finds the claim taken', () => Promise.resolve(false)],
  ])('a renewal that %s: 503 once onEvent ends, so the service delivers again', async (_, renew) => {
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const { deliver, deliverFirst, release, runs, errors } = slowHandler({ ...store, renew });
    const { answer: first } = await deliverFirst();
    await vi.advanceTimersByTimeAsync(400);
    release();
    expect(await first).toBe(503);
    expect(runs()).toBe(1);
    expect(errors.map(([e, c]) => [(e as { code?: string }).code, c.status])).toEqual([
      ['webhook_dedupe_lease_lost', 503],
    ]);
    // The success was still recorded: the redelivery that 503 asked for does not run it again.
    expect(await deliver()).toBe(200);
    expect(runs()).toBe(1);
  });

  test('a renewal that never answers (a store with no timeout of its own): once the lease has lapsed, 503 and onError told, not a silent 200', async () => {
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const hangs = (): Promise<boolean> => new Promise<boolean>(() => undefined);
    const { deliver, deliverFirst, release, runs, errors } = slowHandler({ ...store, renew: hangs });
    const { answer: first } = await deliverFirst();
    await vi.advanceTimersByTimeAsync(1_500);
    // The claim lapsed unrenewed: a redelivery takes it and runs the event, as the docs warn.
    expect(await deliver()).toBe(200);
    expect(runs()).toBe(2);
    release();
    expect(await first).toBe(503);
    expect(errors.map(([e, c]) => [(e as { code?: string }).code, c.status])).toEqual([
      ['webhook_dedupe_lease_lost', 503],
    ]);
  });

  test('a renewal still unanswered when onEvent ends, the claim not yet lapsed: 200', async () => {
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const hangs = (): Promise<boolean> => new Promise<boolean>(() => undefined);
    const { deliverFirst, release, errors } = slowHandler({ ...store, renew: hangs });
    const { answer: first } = await deliverFirst();
    await vi.advanceTimersByTimeAsync(500);
    release();
    expect(await first).toBe(200);
    expect(errors).toEqual([]);
  });

  test('a lost lease and a store whose done throws, not rejects (a JavaScript store): still 503, the handler never rejects', async () => {
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const done = (): Promise<void> => {
      throw new Error('READONLY');
    };
    const renew = (): Promise<boolean> => Promise.resolve(false);
    const { deliverFirst, release, errors } = slowHandler({ ...store, renew, done });
    const { answer: first } = await deliverFirst();
    await vi.advanceTimersByTimeAsync(400);
    release();
    expect(await first).toBe(503);
    expect(errors.map(([e]) => (e as { code?: string }).code)).toEqual(['webhook_dedupe_lease_lost']);
  });

  test('a store of your own without renew keeps working, unrenewed', async () => {
    const store = memoryDedupeStore({ claimTtl: 1_000 });
    const plain: WebhookDedupeStore = {
      claim: (id) => store.claim(id),
      done: (id, token) => store.done(id, token),
      release: (id, token) => store.release(id, token),
    };
    const { deliverFirst, release, runs } = slowHandler(plain);
    const { answer: first } = await deliverFirst();
    await vi.advanceTimersByTimeAsync(300);
    release();
    expect(await first).toBe(200);
    expect(runs()).toBe(1);
  });
});
