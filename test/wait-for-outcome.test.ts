import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NotFoundError,
  RequestAbortedError,
  ValidationError,
  WaitTimeoutError,
  Wallet,
  isWalletError,
} from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';
import { pending, resolveAndDispatch } from './helpers/charge-flow.js';
import { json, loopback } from './helpers/loopback.js';
import { fakeClock, track } from './helpers/fake-clock.js';
import { TEST_KEY, fail, http, mockService, ok, paid } from './helpers/mock-service.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

async function served(options: Parameters<typeof createSandbox>[0] = {}) {
  const sandbox = createSandbox(options);
  const { url, close } = await sandbox.listen();
  const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: url });
  cleanup.push(() => wallet.close(), close);
  return { sandbox, wallet };
}

const verifies = (sandbox: Sandbox, reference: string) =>
  sandbox.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/verify/${reference}`)).length;

describe('charges.waitForOutcome against the sandbox', () => {
  it('resolves to the paid transaction once the customer authorizes, polling on its schedule (fake clock)', async () => {
    const sandbox = createSandbox();
    const options = { apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher };
    const wallet = new Wallet(options);
    await resolveAndDispatch(wallet, 'order_auth');
    await wallet.charges.verify('order_auth'); // loads the schemas on the real clock
    const before = verifies(sandbox, 'order_auth');
    fakeClock();
    const page = new AbortController();
    const after = track(
      wallet.charges.waitForOutcome('order_auth', { pollInterval: 100, signal: page.signal }),
    );
    setTimeout(() => void sandbox.authorize('order_auth'), 300);
    expect((await after(299)).settled).toBe(false);
    const { value: tx } = await after(1_000);
    expect(tx).toMatchObject({ reference: 'order_auth', status: 'SUCCESS', fee: 10_000, netAmount: 490_000 });
    // Polls at 0, 100, 250 and 475 ms (less up to a fifth of jitter each): the fourth sees it paid.
    expect(verifies(sandbox, 'order_auth') - before).toBe(4);
    // A page's long-lived signal is left as it was found.
    expect(getEventListeners(page.signal, 'abort')).toHaveLength(0);
  });

  it('resolves to the FAILED transaction when the customer declines, or the prompt is ended', async () => {
    const { sandbox, wallet } = await served();
    await resolveAndDispatch(wallet, 'order_decline');
    await resolveAndDispatch(wallet, 'order_expire');
    const declined = wallet.charges.waitForOutcome('order_decline', { pollInterval: 100 });
    const expired = wallet.charges.waitForOutcome('order_expire', { pollInterval: 100 });
    setTimeout(() => void sandbox.decline('order_decline'), 200);
    setTimeout(() => void sandbox.expire('order_expire'), 200);
    expect((await declined).status).toBe('FAILED');
    expect((await expired).status).toBe('FAILED');
  });

  it('by default waits until the prompt this client dispatched expires', async () => {
    const { wallet } = await served({ promptTtlMs: 700 });
    await resolveAndDispatch(wallet, 'order_ttl');
    const started = performance.now();
    const tx = await wallet.charges.waitForOutcome('order_ttl', { pollInterval: 100 });
    expect(tx.status).toBe('FAILED');
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('rejects with WaitTimeoutError carrying the last transaction when the customer never answers', async () => {
    const { sandbox, wallet } = await served();
    await resolveAndDispatch(wallet, 'order_never');
    const started = performance.now();
    const error = await wallet.charges
      .waitForOutcome('order_never', { timeout: 800, pollInterval: 100 })
      .catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const timeout = error as WaitTimeoutError;
    expect(timeout.code).toBe('wait_timeout');
    expect(timeout.transaction?.status).toBe('PENDING_AUTHORIZATION');
    expect(timeout.transaction?.reference).toBe('order_never');
    // Every poll is counted; one cut off by the deadline may not have reached the sandbox.
    expect(timeout.attempts! - verifies(sandbox, 'order_never')).toBeGreaterThanOrEqual(0);
    expect(timeout.attempts! - verifies(sandbox, 'order_never')).toBeLessThanOrEqual(1);
    expect(timeout.message).toContain('"order_never"');
    // From below only: the charge never resolves, so without the deadline the test times out.
    expect(elapsed).toBeGreaterThanOrEqual(780);
    expect(JSON.parse(JSON.stringify({ e: timeout }))).toBeTruthy();
  });

  it('rejects at once, without polling on, for an error retrying cannot fix', async () => {
    const { sandbox, wallet } = await served();
    await expect(
      wallet.charges.waitForOutcome('order_unknown', { pollInterval: 100, timeout: 3_000 }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(verifies(sandbox, 'order_unknown')).toBe(1);
  });
});

describe('charges.waitForOutcome against a struggling service', () => {
  it('rides out 429 with Retry-After and 5xx between polls, and honours the Retry-After (fake clock)', async () => {
    const answers = [
      () => ok(pending, null),
      () => fail(429, 'Slow down', { headers: { 'retry-after': '1' } }),
      () => fail(503, 'Unavailable'),
      () => fail(502, 'Bad gateway'),
      () => ok(paid, null),
    ];
    const times: number[] = [];
    const service = mockService(
      http.get('*/v1/charges/verify/:reference', () => {
        times.push(performance.now());
        return answers[Math.min(times.length, answers.length) - 1]!();
      }),
    );
    // No transport retries: every failure reaches the poll loop, which must absorb it itself.
    const wallet = service.wallet({ maxRetries: 0 });
    await wallet.charges.verify('order_1042'); // loads the schemas on the real clock
    times.length = 0;
    fakeClock();
    const after = track(wallet.charges.waitForOutcome('order_1042', { pollInterval: 100 }));
    const result = await after(10_000);
    expect(result.value).toMatchObject({ status: 'SUCCESS' });
    expect(times).toHaveLength(5);
    // After the 429 the next poll waits its Retry-After (1 s) …
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1_000);
    // … and after a 503 without one, the poll schedule again: 100 ms × 1.5², less jitter.
    expect(times[3]! - times[2]!).toBeLessThanOrEqual(225);
  });

  it('lets the transport retry a 5xx within one poll, with its own Retry-After rules', async () => {
    const server = await loopback((_req, res, n) => {
      if (n % 2 === 1) json(res, 503, { status: 'error', message: 'Unavailable' }, { 'retry-after': '0' });
      else json(res, 200, { status: 'success', data: n < 4 ? pending : paid });
    });
    cleanup.push(() => server.close());
    const wallet = server.wallet();
    const { status } = await wallet.charges.waitForOutcome('order_1042', { pollInterval: 100 });
    expect(status).toBe('SUCCESS');
    expect(server.received).toHaveLength(4);
  });

  it('waits through PENDING_SCAN too, and resolves to a status the SDK does not know yet', async () => {
    const statuses = ['PENDING_SCAN', 'PENDING_AUTHORIZATION', 'PENDING_SCAN', 'REVERSED'];
    const server = await loopback((_req, res, n) =>
      json(res, 200, { status: 'success', data: { ...pending, status: statuses[n - 1] ?? 'SUCCESS' } }),
    );
    cleanup.push(() => server.close());
    const tx = await server.wallet().charges.waitForOutcome('order_1042', { pollInterval: 100 });
    expect(tx.status).toBe('REVERSED');
    expect(server.received).toHaveLength(4);
  });

  it('ends a poll that hangs past the deadline, at the deadline, with the last transaction seen', async () => {
    // The second poll is never answered and each request may take an hour: only the wait's own
    // deadline can end it within the test (a clock bound from above would flake under load).
    const server = await loopback((_req, res, n) => {
      if (n === 1) json(res, 200, { status: 'success', data: pending });
    });
    cleanup.push(() => server.close());
    const started = performance.now();
    const error = await server
      .wallet({ timeout: 3_600_000 })
      .charges.waitForOutcome('order_1042', { timeout: 600, pollInterval: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).transaction?.status).toBe('PENDING_AUTHORIZATION');
    expect(performance.now() - started).toBeGreaterThanOrEqual(595);
    expect(server.received).toHaveLength(2);
  });

  it('reports the deadline that came first, even when the caller aborts while the last poll winds down', async () => {
    vi.useFakeTimers();
    let polls = 0;
    // The first poll answers pending; the second is stopped by the deadline and takes 50 ms to end.
    const fetch = (_url: unknown, init?: RequestInit): Promise<Response> =>
      new Promise((resolve, reject) => {
        if (polls++ === 0) return resolve(Response.json({ status: 'success', message: 'OK', data: pending }));
        const signal = init!.signal!;
        signal.addEventListener('abort', () => setTimeout(() => reject(signal.reason as Error), 50));
      });
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://api.wallet.test', fetch, maxRetries: 0 });
    const page = new AbortController();
    const wait = wallet.charges
      .waitForOutcome('order_1042', { timeout: 300, pollInterval: 100, signal: page.signal })
      .catch((error: unknown) => error);
    setTimeout(() => page.abort(new Error('page closed')), 320);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await wait;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).transaction?.status).toBe('PENDING_AUTHORIZATION');
    expect(getEventListeners(page.signal, 'abort')).toHaveLength(0);
  });

  it('stops at once when the signal fires, between polls or during a slow one', async () => {
    // Nothing else could end these waits within the test's time: the next poll is an hour away and
    // the stalled poll is never answered. Only the signal can settle them.
    const HOUR = 3_600_000;
    let stall = false;
    const server = await loopback((_req, res) => {
      if (!stall) json(res, 200, { status: 'success', data: pending });
    });
    cleanup.push(() => server.close());
    const wallet = server.wallet({ timeout: HOUR });

    const between = new AbortController();
    const first = wallet.charges.waitForOutcome('order_1042', {
      signal: between.signal,
      pollInterval: HOUR,
      timeout: HOUR,
    });
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    between.abort();
    await expect(first).rejects.toBeInstanceOf(RequestAbortedError);

    stall = true;
    const during = new AbortController();
    const second = wallet.charges.waitForOutcome('order_1042', { signal: during.signal, timeout: HOUR });
    await vi.waitFor(() => expect(server.received).toHaveLength(2));
    during.abort();
    await expect(second).rejects.toBeInstanceOf(RequestAbortedError);
    await new Promise((r) => setTimeout(r, 200));
    expect(server.received).toHaveLength(2);

    const already = AbortSignal.abort();
    await expect(wallet.charges.waitForOutcome('order_1042', { signal: already })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(server.received).toHaveLength(2);
  });
});

describe('charges.waitForOutcome options', () => {
  it('refuses bad options by name, with a suggestion, and sends nothing', async () => {
    const server = await loopback((_req, res) => json(res, 500, {}));
    cleanup.push(() => server.close());
    const wallet = server.wallet();
    const bad: unknown[] = [
      { timout: 1000 },
      { pollInterval: 10 },
      { pollInterval: Number.NaN },
      { timeout: -1 },
      { timeout: '5000' },
      { signal: {} },
      'fast',
      [],
    ];
    const messages: string[] = [];
    for (const options of bad) {
      const error = await wallet.charges
        .waitForOutcome('order_1042', options as never)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      messages.push((error as ValidationError).message);
    }
    expect(messages[0]).toContain(
      "options.timout: is not an option of waitForOutcome (did you mean 'timeout'?)",
    );
    expect(messages[1]).toContain('options.pollInterval: must be a number of milliseconds from 100');
    expect(messages[3]).toContain('options.timeout: must be a positive number');
    expect(messages[5]).toContain('options.signal: must be an AbortSignal');
    expect(server.received).toHaveLength(0);
  });

  it('refuses a reference that is not a string as a typed error', async () => {
    const server = await loopback((_req, res) => json(res, 500, {}));
    cleanup.push(() => server.close());
    for (const reference of [42, '', undefined, 'order_\ud800']) {
      const error = await server
        .wallet()
        .charges.waitForOutcome(reference as string)
        .catch((e: unknown) => e);
      expect(isWalletError(error)).toBe(true);
    }
    expect(server.received).toHaveLength(0);
  });
});
