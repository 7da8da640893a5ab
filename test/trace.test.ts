import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestRetryMessage, RequestTraceMessage } from '@wallet/node';
import { NotFoundError, Wallet } from '@wallet/node';
import { createSandbox, FetchDispatcher } from '@wallet/node/testing';
import { json, loopback } from './helpers/loopback.js';
import { TEST_KEY, dispatched, paid } from './helpers/mock-service.js';

/** Each event, with a copy of its message as it was then and the object itself (`raw`). */
type Seen =
  | { event: string; message: RequestTraceMessage; raw: RequestTraceMessage }
  | { event: 'retry'; message: RequestRetryMessage; raw: RequestRetryMessage };

const undo: (() => unknown)[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  for (const fn of undo.splice(0).reverse()) await fn();
});

/** Subscribes to both channels the way a merchant's instrumentation would, recording every event. */
function record(): Seen[] {
  const seen: Seen[] = [];
  const tracing = diagnostics.tracingChannel<object, RequestTraceMessage>('wallet:request');
  const on = (event: string) => (message: RequestTraceMessage) =>
    void seen.push({ event, message: { ...message }, raw: message });
  const handlers = {
    start: on('start'),
    end: on('end'),
    asyncStart: on('asyncStart'),
    asyncEnd: on('asyncEnd'),
    error: on('error'),
  };
  tracing.subscribe(handlers);
  const onRetry = (message: unknown) =>
    seen.push({
      event: 'retry',
      message: message as RequestRetryMessage,
      raw: message as RequestRetryMessage,
    });
  diagnostics.subscribe('wallet:request:retry', onRetry);
  undo.push(
    () => tracing.unsubscribe(handlers),
    () => diagnostics.unsubscribe('wallet:request:retry', onRetry),
  );
  return seen;
}

async function server(handler: Parameters<typeof loopback>[0]) {
  const s = await loopback(handler);
  undo.push(() => s.close());
  return s;
}

const ok = (data: unknown) => ({ status: 'success', message: 'OK', data });
// Everything personal or secret that a call carries: none of it may reach a subscriber.
const PRIVATE = [
  TEST_KEY,
  TEST_KEY.slice(8, 20),
  '@ada',
  'Ada',
  '+2348000000001',
  '8000000001',
  'order_1042',
  'Birthday gift',
];

function expectNothingPrivate(seen: Seen[]): void {
  const shown = inspect(seen, { depth: 10, showHidden: true }) + JSON.stringify(seen);
  for (const secret of PRIVATE) expect(shown).not.toContain(secret);
}

describe('the wallet:request tracing channel', () => {
  it('publishes start, end, asyncStart and asyncEnd of a successful call with the template and outcome', async () => {
    const s = await server((_req, res) => json(res, 200, { status: 'success', data: paid }));
    const seen = record();
    await s.wallet().charges.verify('order_1042');
    expect(seen.map((e) => e.event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(seen[0]!.message).toEqual({
      method: 'GET',
      endpoint: '/v1/charges/verify/{reference}',
      idempotencyKey: undefined,
      attempts: 0,
      status: undefined,
      outcomeUnknown: false,
    });
    expect(seen[3]!.message).toMatchObject({ attempts: 1, status: 200, outcomeUnknown: false });
    expectNothingPrivate(seen);
  });

  it('publishes each retry with its reason and delay, and ends with the attempts and the key of the call', async () => {
    const s = await server((req, res, n) => {
      if (n === 1) return req.socket.destroy();
      if (n === 2) return json(res, 503, { status: 'error', message: 'Busy' }, { 'retry-after': '0' });
      json(res, 200, ok(dispatched));
    });
    const seen = record();
    const { response } = await s
      .wallet()
      .charges.dispatch({
        reference: 'order_1042',
        bankId: 'bnk_01',
        authChannel: 'wallet_push',
        description: 'Birthday gift',
        metadata: { handle: '@ada' },
      })
      .withResponse();
    expect(seen.map((e) => e.event)).toEqual(['start', 'end', 'retry', 'retry', 'asyncStart', 'asyncEnd']);
    const [first, second] = seen
      .filter((e) => e.event === 'retry')
      .map((e) => e.message as RequestRetryMessage);
    expect(first).toMatchObject({ attempt: 2, reason: 'network', status: undefined });
    expect(first!.delay).toBeGreaterThan(0);
    expect(second).toMatchObject({ attempt: 3, reason: 'status', status: 503, delay: 0 });
    // The retry carries the very context object the tracing channel publishes, and all events share it.
    expect(first!.request).toBe(seen[0]!.raw);
    expect(new Set(seen.filter((e) => e.event !== 'retry').map((e) => e.raw)).size).toBe(1);
    expect(seen.at(-1)!.message).toMatchObject({
      method: 'POST',
      endpoint: '/v1/charges/dispatch',
      attempts: 3,
      status: 200,
      idempotencyKey: response.idempotencyKey,
      outcomeUnknown: false,
    });
    expectNothingPrivate(seen);
  });

  it('publishes the error event with the class and code only, never the text the server sent', async () => {
    const s = await server((_req, res) =>
      json(res, 404, {
        status: 'error',
        message: `No customer '@ada' (Ada Obi, +2348000000001) for order_1042; key ${TEST_KEY}`,
      }),
    );
    const seen = record();
    const call = s
      .wallet()
      .charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_1042' });
    await expect(call).rejects.toBeInstanceOf(NotFoundError);
    expect(seen.map((e) => e.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    const failed = seen[2]!.message as RequestTraceMessage;
    expect(failed).toMatchObject({ endpoint: '/v1/charges/resolve-handle', attempts: 1, status: 404 });
    expect(failed.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(failed.error).toMatchObject({ name: 'NotFoundError', code: 'not_found' });
    expectNothingPrivate(seen);
  });

  it('reports an unknown outcome when a POST got no answer, and 0 attempts when nothing was sent', async () => {
    const s = await server((req) => req.socket.destroy());
    const seen = record();
    const wallet = s.wallet({ maxRetries: 1 });
    await expect(wallet.refunds.create({ reference: 'order_1042', reason: 'Ada asked' })).rejects.toThrow();
    const lost = seen.find((e) => e.event === 'asyncEnd')!.message as RequestTraceMessage;
    expect(lost).toMatchObject({ endpoint: '/v1/refunds', attempts: 2, outcomeUnknown: true });
    expect(lost.error).toMatchObject({ name: 'ConnectionError' });

    seen.length = 0;
    await expect(
      wallet.charges.resolveHandle({ handle: '@ada', amount: 1.5, reference: 'order_1042' }),
    ).rejects.toThrow('amount');
    expect(seen.map((e) => e.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(seen[2]!.message).toMatchObject({
      attempts: 0,
      outcomeUnknown: false,
      error: { code: 'invalid_request' },
    });
    expectNothingPrivate(seen);
  });

  it('runs the call inside the start event’s bound store, so instrumentation below it nests', async () => {
    const store = new AsyncLocalStorage<{ span: string }>();
    const tracing = diagnostics.tracingChannel<object, RequestTraceMessage>('wallet:request');
    tracing.start.bindStore(store, (message) => ({ span: `span for ${message.endpoint}` }));
    undo.push(() => tracing.start.unbindStore(store));
    const sandbox = createSandbox();
    const seenInside: (string | undefined)[] = [];
    const dispatcher = new FetchDispatcher((request) => {
      seenInside.push(store.getStore()?.span);
      return sandbox.fetch(request);
    });
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher });
    await wallet.charges.resolveHandle({ handle: '@ada', amount: 5_000, reference: 'order_1' });
    expect(seenInside).toEqual(['span for /v1/charges/resolve-handle']);
    expect(store.getStore()).toBeUndefined();
  });

  it('is a silent no-op on a platform without node:diagnostics_channel (the Web builds)', async () => {
    const { platform } = await import('../src/platform/web.js');
    vi.doMock('../src/platform/index.js', () => ({ platform: { ...platform, createAgent: undefined } }));
    undo.push(
      () => vi.doUnmock('../src/platform/index.js'),
      () => vi.resetModules(),
    );
    vi.resetModules();
    const fresh = await import('@wallet/node');
    const seen = record();
    const sandbox = createSandbox();
    const wallet = new fresh.Wallet({
      apiKey: TEST_KEY,
      baseUrl: sandbox.baseUrl,
      dispatcher: sandbox.dispatcher,
    });
    await expect(wallet.charges.verify('nope')).rejects.toBeInstanceOf(fresh.NotFoundError);
    expect(seen).toEqual([]);
  });
  it('keeps the status of the last response that arrived when later attempts got none', async () => {
    // A 503, then two dropped connections: the span's status is the 503's, whatever came between.
    const s = await server((req, res, n) =>
      n === 1
        ? json(res, 503, { status: 'error', message: 'Busy' }, { 'retry-after': '0' })
        : req.socket.destroy(),
    );
    const seen = record();
    await expect(s.wallet({ maxRetries: 2 }).charges.verify('order_1042')).rejects.toThrow();
    const retries = seen.filter((e) => e.event === 'retry').map((e) => e.message as RequestRetryMessage);
    expect(retries.map((r) => [r.reason, r.status])).toEqual([
      ['status', 503],
      ['network', undefined],
    ]);
    const end = seen.find((e) => e.event === 'asyncEnd')!.message as RequestTraceMessage;
    expect(end).toMatchObject({ attempts: 3, status: 503, error: { name: 'ConnectionError' } });
  });
});

describe("the client's logger", () => {
  it('an async sink that rejects (its log service down) loses its lines, never leaves a rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.prependListener('unhandledRejection', onUnhandled);
    undo.push(() => process.off('unhandledRejection', onUnhandled));
    let lines = 0;
    // As a log service client's methods are: they return a promise (typed void here, as LogSink's).
    const send = (() => {
      lines++;
      return Promise.reject(new Error('log service unavailable'));
    }) as () => void;
    const s = await server((_req, res, n) =>
      json(res, n === 1 ? 503 : 200, n === 1 ? { status: 'error', message: 'busy' } : ok(paid), {
        'retry-after': '0',
      }),
    );
    const wallet = s.wallet({
      logLevel: 'debug',
      logger: { debug: send, info: send, warn: send, error: send },
    });
    await expect(wallet.charges.verify('order_1042')).resolves.toMatchObject({ reference: 'order_1042' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
  });
});
