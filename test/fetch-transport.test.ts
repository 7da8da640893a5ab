import { Readable } from 'node:stream';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ConnectionError,
  ConnectionTimeoutError,
  RequestAbortedError,
  ResponseTooLargeError,
  Wallet,
} from '@wallet/node';
import { fakeClock, track } from './helpers/fake-clock.js';
import { json, loopback } from './helpers/loopback.js';
import { BASE_URL, dispatched, paid, refunded, TEST_KEY } from './helpers/mock-service.js';

const dispatch = { reference: 'order_1042', bankId: 'bnk_01', authChannel: 'wallet_push' } as const;
const success = (data: unknown) => ({ status: 'success', message: 'OK', data });

describe('WALLET_TRANSPORT=fetch: MSW sees the client as a merchant sets it up', () => {
  const keys: string[] = [];
  let calls = 0;
  const msw = setupServer(
    http.post(`${BASE_URL}/v1/charges/dispatch`, ({ request }) => {
      keys.push(request.headers.get('x-idempotency-key') ?? '');
      return ++calls === 1
        ? HttpResponse.json(
            { status: 'error', message: 'Busy' },
            { status: 503, headers: { 'retry-after': '0' } },
          )
        : HttpResponse.json(success(dispatched));
    }),
  );
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => msw.close());
  afterEach(() => vi.unstubAllEnvs());

  it('sends through globalThis.fetch as patched at call time, retrying with one key', async () => {
    vi.stubEnv('WALLET_TRANSPORT', 'fetch');
    vi.stubEnv('WALLET_SECRET_KEY', TEST_KEY);
    vi.stubEnv('WALLET_BASE_URL', BASE_URL);
    const wallet = new Wallet(); // an app module building its client from env
    const { data, response } = await wallet.charges.dispatch(dispatch).withResponse();
    expect(data.reference).toBe('order_1042');
    expect(response.attempts).toBe(2);
    expect(keys).toEqual([response.idempotencyKey, response.idempotencyKey]);
  });

  it('is the path the Bun and Deno build takes (their undici is a stub), with no env needed', async () => {
    const { platform } = await import('../src/platform/bun-deno.js');
    vi.doMock('../src/platform/index.js', () => ({ platform }));
    vi.resetModules();
    try {
      const fresh = await import('@wallet/node');
      calls = 1; // answer at once
      keys.length = 0;
      const wallet = new fresh.Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL });
      await expect(wallet.charges.dispatch(dispatch)).resolves.toMatchObject({ reference: 'order_1042' });
      expect(keys).toHaveLength(1);
      await wallet.close();
    } finally {
      vi.doUnmock('../src/platform/index.js');
      vi.resetModules();
    }
  });
});

describe('the fetch option keeps every rule', () => {
  let server: Awaited<ReturnType<typeof loopback>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const viaFetch = (options: ConstructorParameters<typeof Wallet>[0] = {}) =>
    server!.wallet({ fetch: (url, init) => fetch(url, init), ...options });

  it('one deadline covers a body that stalls after the headers (fake clock: headers at 150 ms, cut at 200)', async () => {
    // What fetch does: the headers come at 150 ms, then a body that stalls; the request's signal
    // rejects the fetch before the headers, and errors the body stream after them.
    const stalling = (_url: string, init: RequestInit): Promise<Response> =>
      new Promise((resolve, reject) => {
        const signal = init.signal!;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"status":"success","data":{'));
            signal.addEventListener('abort', () => controller.error(signal.reason), { once: true });
          },
        });
        const headers = setTimeout(() => {
          const init = { status: 200, headers: { 'content-type': 'application/json' } };
          resolve(new Response(body, init));
        }, 150);
        const abort = (): void => (clearTimeout(headers), reject(signal.reason as Error));
        signal.addEventListener('abort', abort, { once: true });
      });
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, fetch: stalling, maxRetries: 0 });
    await wallet.charges.verify('r', { timeout: 1 }).catch(() => undefined); // loads the schemas on the real clock
    fakeClock();
    try {
      const after = track(wallet.charges.verify('r', { timeout: 200 }));
      expect((await after(199)).settled).toBe(false);
      const result = await after(1);
      expect(result.error).toBeInstanceOf(ConnectionTimeoutError);
      expect(result.error).toMatchObject({ attempts: 1, outcomeUnknown: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads a body that is a Node stream, as node-fetch answers: a refund answered is no connection failure', async () => {
    const refund = { refundReference: 'rf_1', amount: 100, currency: 'NGN', status: 'PROCESSED' };
    server = await loopback((_req, res) => json(res, 200, success(refund)));
    // node-fetch (v2 and v3) and polyfills built on it: Fetch's status and headers, a Node stream as body.
    const nodeFetch = async (url: string, init: RequestInit) => {
      const { status, headers, body } = await fetch(url, init);
      return { status, headers, body: body && Readable.fromWeb(body as never) } as unknown as Response;
    };
    const wallet = viaFetch({ fetch: nodeFetch });
    await expect(wallet.refunds.create({ reference: 'order_1042', amount: 100 })).resolves.toEqual(refund);
    expect(server.received).toHaveLength(1);
  });

  it('cuts off a body over 1 MiB without retrying', async () => {
    server = await loopback((_req, res) => json(res, 200, success({ ...paid, pad: 'x'.repeat(1_100_000) })));
    await expect(viaFetch().charges.verify('r')).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(server.received).toHaveLength(1);
  });

  it('never follows a redirect, so the key never travels to another host', async () => {
    const elsewhere = await loopback((_req, res) => json(res, 200, success(paid)));
    server = await loopback((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/v1/charges/verify/r` });
      res.end();
    });
    await expect(viaFetch().charges.verify('r')).rejects.toMatchObject({ name: 'ApiError', status: 307 });
    expect(elsewhere.received).toHaveLength(0);
    await elsewhere.close();
  });

  it('classifies a refused connection from the cause fetch wraps: not reached', async () => {
    server = await loopback(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: url,
      fetch: (u, i) => fetch(u, i),
      maxRetries: 0,
    });
    const error = await wallet.charges.dispatch(dispatch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: false });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('reads the code inside an AggregateError (every address of a host refused): not reached', async () => {
    // What Node throws when it tried each address of a name (IPv6, then IPv4) and all refused: the
    // codes sit on the errors it aggregates, one link below fetch's TypeError.
    const refused = (address: string): Error =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const aggregate = new AggregateError([refused('::1:443'), refused('127.0.0.1:443')]);
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: BASE_URL,
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: aggregate })),
      maxRetries: 0,
    });
    const error = await wallet.charges.dispatch(dispatch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: false });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('is honest when a runtime says only "fetch failed": the outcome is unknown', async () => {
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: BASE_URL,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      maxRetries: 0,
    });
    const error = await wallet.charges.dispatch(dispatch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: true });
  });

  // A merchant's wrapper that builds its own init and drops `signal`: fetch never hears the deadline.
  const deaf = (answer: () => Promise<Response>) =>
    new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, fetch: answer, maxRetries: 0, timeout: 200 });
  const stalledBody = () =>
    Promise.resolve(new Response(new ReadableStream({ pull: () => new Promise<void>(() => undefined) })));

  it('ends at the timeout even when the fetch ignores its signal: headers that never come', async () => {
    const wallet = deaf(() => new Promise<Response>(() => undefined));
    const error = await wallet.refunds
      .create({ reference: 'order_1042', amount: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({ attempts: 1, outcomeUnknown: true });
  });

  // node-fetch's body is a Node stream: its async iterator's return() waits behind a read under way
  // and does nothing before the first, so only destroy() lets the stream (and its socket) go.
  const nodeBody = (read: () => void = () => undefined) => new Readable({ read });
  const nodeAnswer = (body: Readable, headers: Record<string, string> = {}) =>
    ({ status: 200, headers: new Headers(headers), body }) as unknown as Response;

  it('lets go of a Node stream body that stalls when the fetch ignores its signal', async () => {
    const body = nodeBody();
    const error = await deaf(() => Promise.resolve(nodeAnswer(body)))
      .refunds.create({ reference: 'order_1042', amount: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(body.destroyed).toBe(true);
  });

  it('lets go of a Node stream body in a Content-Encoding the SDK cannot decode, unread', async () => {
    const body = nodeBody();
    const wallet = deaf(() => Promise.resolve(nodeAnswer(body, { 'content-encoding': 'x-custom' })));
    await expect(wallet.charges.verify('order_1042')).rejects.toMatchObject({
      name: 'ResponseValidationError',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(body.destroyed).toBe(true);
  });

  it('lets go of a Node stream body that answers after the deadline, unread', async () => {
    const body = nodeBody();
    let answer: (response: Response) => void = () => undefined;
    const error = await deaf(() => new Promise<Response>((resolve) => (answer = resolve)))
      .charges.verify('order_1042')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    answer(nodeAnswer(body));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(body.destroyed).toBe(true);
  });

  it("ends when the merchant's signal fires even when the fetch ignores it: a body that stalls", async () => {
    const signal = AbortSignal.timeout(50);
    const error = await deaf(stalledBody)
      .charges.verify('order_1042', { signal, timeout: 10_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
  });
});

describe("a merchant's fetch wrapper that drops init.redirect", () => {
  it("a refund it re-POSTed to a 307 Location is never read as the refund's answer: unknown outcome, and why", async () => {
    const elsewhere = await loopback((_req, res) => json(res, 200, success(refunded)));
    const service = await loopback((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/v1/refunds` });
      res.end();
    });
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: service.url,
      // A wrapper passing on only the method, headers and body: fetch's default redirect is 'follow'.
      fetch: (url, init) =>
        fetch(url, { method: init?.method ?? 'GET', headers: init?.headers ?? {}, body: init?.body ?? null }),
      maxRetries: 2,
      logLevel: 'off',
    });
    const error = (await wallet.refunds
      .create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'rf-307' })
      .catch((e: unknown) => e)) as Record<string, unknown>;
    await Promise.all([service.close(), elsewhere.close()]);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ attempts: 1, outcomeUnknown: true, idempotencyKey: 'rf-307' });
    expect(String(error.message)).toContain('followed a redirect');
    expect(String(error.message)).toContain('init');
    expect(String(error.message)).toContain("idempotencyKey 'rf-307'");
    // Not retried: each retry would send the refund to the other address again.
    expect(elsewhere.received).toHaveLength(1);
  });
});
