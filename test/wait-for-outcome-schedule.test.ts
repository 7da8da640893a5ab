import { afterEach, describe, expect, it, vi } from 'vitest';
import { WaitTimeoutError, Wallet } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';
import { pending, resolveAndDispatch } from './helpers/charge-flow.js';
import { TEST_KEY, dispatched, fail, http, mockService, ok } from './helpers/mock-service.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Runs a wait to its end on the fake clock; returns what it settled with and after how long. */
async function runOut(wait: Promise<unknown>, limitMs: number) {
  const started = Date.now();
  let settledAt: number | undefined;
  const outcome = wait.then(
    (value) => ((settledAt = Date.now()), value),
    (error: unknown) => ((settledAt = Date.now()), error),
  );
  for (let t = 0; t < limitMs && settledAt === undefined; t += 250) await vi.advanceTimersByTimeAsync(250);
  return { outcome: await outcome, after: settledAt === undefined ? Infinity : settledAt - started };
}

describe('charges.waitForOutcome schedule (fake clock)', () => {
  it('polls fewer than 40 times over a two-minute wait, then gives up at two minutes', async () => {
    vi.useFakeTimers();
    const sandbox = createSandbox();
    const options = { apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher };
    const other = new Wallet(options);
    await resolveAndDispatch(other, 'o_slow', 5_000);
    // This client never dispatched it, so it knows no expiry: the default is two minutes.
    const wallet = new Wallet(options);
    const { outcome, after } = await runOut(wallet.charges.waitForOutcome('o_slow'), 200_000);
    expect(outcome).toBeInstanceOf(WaitTimeoutError);
    expect(after).toBeGreaterThanOrEqual(120_000);
    expect(after).toBeLessThan(120_500);
    const polls = sandbox.requests.filter((r) => r.path.includes('/verify/')).length;
    expect((outcome as WaitTimeoutError).attempts).toBe(polls);
    expect(polls).toBeGreaterThan(15);
    expect(polls).toBeLessThan(40);
  });

  it('waits until 5 s past the expiresAt of its own successful dispatch, on its own clock', async () => {
    vi.useFakeTimers();
    // The service's clock runs an hour behind ours; expiresAt is 30 s after its own now.
    const serverNow = () => Date.now() - 3_600_000;
    let dispatchStatus = 200;
    const service = mockService(
      http.post('*/v1/charges/dispatch', () =>
        dispatchStatus === 200
          ? ok(
              { ...dispatched, expiresAt: new Date(serverNow() + 30_000).toISOString() },
              'Authorization prompt sent',
              { headers: { date: new Date(serverNow()).toUTCString() } },
            )
          : fail(dispatchStatus, 'Refused'),
      ),
      http.get('*/v1/charges/verify/:reference', ({ params }) =>
        ok({ ...pending, reference: String(params.reference) }, null),
      ),
    );
    const wallet = service.wallet();
    const params = { reference: 'order_1042', bankId: 'bnk_01', authChannel: 'wallet_push' } as const;
    await wallet.charges.dispatch(params);
    const own = await runOut(wallet.charges.waitForOutcome('order_1042'), 200_000);
    expect(own.outcome).toBeInstanceOf(WaitTimeoutError);
    expect(own.after).toBeGreaterThanOrEqual(34_000);
    expect(own.after).toBeLessThanOrEqual(36_000);

    // A refused dispatch of another reference teaches nothing: that wait falls back to two minutes.
    dispatchStatus = 422;
    await expect(wallet.charges.dispatch({ ...params, reference: 'order_2' })).rejects.toThrow('Refused');
    const refused = await runOut(wallet.charges.waitForOutcome('order_2'), 200_000);
    expect(refused.after).toBeGreaterThanOrEqual(120_000);
  });
});

describe('the memory of dispatches behind the default deadline', () => {
  it('keeps the most recently dispatched references only, so a long-lived client stays flat', async () => {
    const { DispatchMemory, DISPATCH_MEMORY_SIZE } = await import('../src/resources/charges.js');
    const memory = new DispatchMemory();
    const at = '2026-11-21T10:05:00.000Z';
    for (let i = 0; i < DISPATCH_MEMORY_SIZE + 1_000; i++) memory.remember(`order_${i}`, at);
    expect(memory.size).toBe(DISPATCH_MEMORY_SIZE);
    expect(memory.expiryOf('order_0')).toBeUndefined();
    expect(memory.expiryOf(`order_${DISPATCH_MEMORY_SIZE + 999}`)).toBe(Date.parse(at));
    // A new dispatch of an old reference makes it the newest again and replaces its expiry.
    memory.remember('order_1000', '2026-11-21T11:00:00.000Z');
    memory.remember('order_next', at);
    expect(memory.expiryOf('order_1000')).toBe(Date.parse('2026-11-21T11:00:00.000Z'));
    expect(memory.expiryOf('order_1001')).toBeUndefined();
    memory.remember('order_bad', 'not a date');
    expect(memory.expiryOf('order_bad')).toBeUndefined();
  });
});
