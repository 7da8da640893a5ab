import type { DispatchHandler, Dispatcher } from '../src/index.js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ConnectionTimeoutError,
  InternalServerError,
  RateLimitError,
  ValidationError,
  Wallet,
  type ClientOptions,
  type WalletError,
} from '@wallet/node';
import { paid, TEST_KEY } from './helpers/mock-service.js';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';

/** A dispatcher answering from a script with no socket, so fake timers drive every wait. */
function scripted(answers: Answer[]) {
  const state = { calls: 0 };
  const dispatcher = {
    dispatch(_options: unknown, handler: DispatchHandler) {
      const answer = answers[Math.min(state.calls++, answers.length - 1)]!;
      queueMicrotask(() => {
        const controller = {
          abort: (reason?: Error) => handler.onResponseError?.(controller, reason ?? new Error('aborted')),
        };
        handler.onRequestStart?.(controller, {});
        if (answer === 'hang') return;
        const headers = { 'content-type': 'application/json', ...answer.headers };
        handler.onResponseStart?.(controller, answer.status, headers, '');
        handler.onResponseData?.(
          controller,
          Buffer.from(JSON.stringify(answer.body ?? { status: 'error', message: 'Slow down' })),
        );
        handler.onResponseEnd?.(controller, {});
      });
      return true;
    },
  };
  return { dispatcher: dispatcher, state };
}

const ok = { status: 200, body: { status: 'success', data: paid } };
const wallet = (dispatcher: Dispatcher, options: ClientOptions = {}) =>
  new Wallet({
    apiKey: TEST_KEY,
    baseUrl: 'https://api.wallet.test',
    dispatcher,
    logLevel: 'off',
    ...options,
  });

/** Starts a call on the fake clock; `after(ms)` moves the clock and says whether it has settled. */
function track(call: Promise<unknown>) {
  const result: { settled: boolean; error: WalletError | undefined; value: unknown } = {
    settled: false,
    error: undefined,
    value: undefined,
  };
  call.then(
    (value) => Object.assign(result, { settled: true, value }),
    (error: unknown) => Object.assign(result, { settled: true, error: error as WalletError }),
  );
  return async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
    return result;
  };
}

beforeAll(async () => {
  // Loads the schemas with the real clock: afterwards a call awaits only its exchange.
  await wallet(scripted([ok]).dispatcher).charges.verify('order_1042');
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});
const fake = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });

describe('a deadline for the whole call', () => {
  it('a Retry-After: 60 with timeout 1500 ends the call at once with RateLimitError, never a 60 s sleep', async () => {
    fake();
    const { dispatcher, state } = scripted([{ status: 429, headers: { 'retry-after': '60' } }, ok]);
    const after = track(wallet(dispatcher, { timeout: 1500, maxRetries: 1 }).charges.verify('order_1042'));
    const result = await after(1);
    expect(result.settled).toBe(true);
    expect(result.error).toBeInstanceOf(RateLimitError);
    expect(result.error).toMatchObject({ retryAfter: 60, attempts: 1 });
    expect(result.error!.message).toContain('maxRetryAfter');
    expect(state.calls).toBe(1);
  });

  it('waits a Retry-After up to maxRetryAfter (20 s by default), then retries', async () => {
    fake();
    const { dispatcher, state } = scripted([{ status: 429, headers: { 'retry-after': '15' } }, ok]);
    const after = track(wallet(dispatcher).charges.verify('order_1042'));
    expect((await after(14_990)).settled).toBe(false);
    expect(state.calls).toBe(1);
    const result = await after(20);
    expect(result).toMatchObject({ settled: true, value: { reference: 'order_1042' } });
    expect(state.calls).toBe(2);
  });

  it('a Retry-After past maxRetryAfter ends at once; a client may raise maxRetryAfter', async () => {
    fake();
    const first = scripted([{ status: 429, headers: { 'retry-after': '25' } }, ok]);
    const ended = await track(wallet(first.dispatcher).charges.verify('order_1042'))(1);
    expect(ended.error).toMatchObject({ name: 'RateLimitError', retryAfter: 25 });
    const second = scripted([{ status: 429, headers: { 'retry-after': '25' } }, ok]);
    const waited = track(wallet(second.dispatcher, { maxRetryAfter: 30_000 }).charges.verify('order_1042'));
    expect((await waited(25_010)).value).toMatchObject({ reference: 'order_1042' });
  });

  it('a Retry-After longer than the time left ends a 503 at once with the 503', async () => {
    fake();
    const { dispatcher, state } = scripted([{ status: 503, headers: { 'retry-after': '5' } }, ok]);
    const after = track(wallet(dispatcher, { totalTimeout: 3_000 }).charges.verify('order_1042'));
    const result = await after(1);
    expect(result.error).toBeInstanceOf(InternalServerError);
    expect(result.error!.message).toContain('totalTimeout');
    expect(state.calls).toBe(1);
  });

  it('an attempt is cut at the call’s totalTimeout, whatever its own timeout', async () => {
    fake();
    const { dispatcher, state } = scripted(['hang']);
    const after = track(
      wallet(dispatcher, { timeout: 30_000 }).refunds.create(
        { reference: 'order_1042' },
        { totalTimeout: 10_000 },
      ),
    );
    expect((await after(9_999)).settled).toBe(false);
    const result = await after(1);
    expect(result.error).toBeInstanceOf(ConnectionTimeoutError);
    expect(result.error).toMatchObject({ attempts: 1, outcomeUnknown: true });
    expect(result.error!.message).toContain('totalTimeout of 10000 ms');
    expect(state.calls).toBe(1);
  });

  it('60 s by default: three hanging attempts of 30 s end at 60 s, not 90 s', async () => {
    fake();
    const { dispatcher, state } = scripted(['hang']);
    const after = track(wallet(dispatcher).charges.verify('order_1042'));
    expect((await after(59_999)).settled).toBe(false);
    expect((await after(1)).error).toBeInstanceOf(ConnectionTimeoutError);
    expect(state.calls).toBe(2);
  });

  it('a backoff that would pass the deadline ends the call with the last error instead of sleeping', async () => {
    fake();
    vi.spyOn(Math, 'random').mockReturnValue(0); // backoffs of exactly 500 ms, then 1000 ms
    const { dispatcher, state } = scripted([{ status: 500 }]);
    const after = track(
      wallet(dispatcher, { totalTimeout: 1_200, maxRetries: 5 }).charges.verify('order_1042'),
    );
    expect((await after(499)).settled).toBe(false);
    const result = await after(1);
    expect(result.error).toBeInstanceOf(InternalServerError);
    expect(result.error).toMatchObject({ attempts: 2 });
    expect(state.calls).toBe(2);
  });

  it('checks totalTimeout and maxRetryAfter like every option', async () => {
    expect(() => wallet(scripted([ok]).dispatcher, { totalTimeout: 0 })).toThrow(ValidationError);
    expect(() => wallet(scripted([ok]).dispatcher, { maxRetryAfter: -1 })).toThrow(/maxRetryAfter/);
    await expect(
      wallet(scripted([ok]).dispatcher).charges.verify('order_1042', { totalTimeout: 'soon' as never }),
    ).rejects.toThrow(/totalTimeout/);
  });
});
