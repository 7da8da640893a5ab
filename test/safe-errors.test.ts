/**
 * Errors a merchant can log however they like: console.error, util.inspect at any depth and
 * JSON.stringify never throw on an error or its cause chain, and never show the key, whatever a
 * cause carried (an aborted call's DOMException, a Request with the Authorization header, Headers,
 * a Map, a buffer, a class instance).
 */
import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { loopback } from './helpers/loopback.js';
import { TEST_KEY } from './helpers/mock-service.js';

const part = TEST_KEY.slice('sk_test_'.length);

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every way a merchant prints an error, as one text; throws if any of them throws. */
function printed(error: unknown): string {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (chunk: Buffer) => (out += chunk.toString()));
  new Console({ stdout: stream, stderr: stream }).error(error);
  const cause = (error as Error).cause;
  return [
    out,
    inspect(error, { depth: Infinity }),
    inspect(error, { depth: Infinity, showHidden: true }),
    JSON.stringify(error),
    JSON.stringify(cause),
    String(error),
  ].join('\n');
}

function expectNoKey(text: string): void {
  for (let i = 0; i + 12 <= part.length; i++) expect(text).not.toContain(part.slice(i, i + 12));
}

const transports = [
  ['the default transport', {}],
  ['the fetch transport', { fetch: globalThis.fetch }],
] as const;

describe('an aborted call', () => {
  it.each(transports)(
    'prints with console.error, inspect and JSON on %s (controller.abort())',
    async (_, options) => {
      const controller = new AbortController();
      // The server holds the request and the caller gives up once it has arrived.
      server = await loopback(() => controller.abort());
      const error = await server
        .wallet({ ...options, maxRetries: 0 })
        .charges.verify('order_1042', { signal: controller.signal })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'RequestAbortedError' });
      const text = printed(error);
      expect(text).toContain('AbortError');
      expect((error as Error).cause).toBeInstanceOf(Error);
      expectNoKey(text);
    },
  );

  it.each(transports)('prints on %s when AbortSignal.timeout() ends it', async (_, options) => {
    server = await loopback(() => undefined);
    const error = await server
      .wallet({ ...options, maxRetries: 0 })
      .charges.verify('order_1042', { signal: AbortSignal.timeout(1) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RequestAbortedError' });
    expect(printed(error)).toContain('TimeoutError');
  });

  it('prints when the signal had fired before the call, and when waitForOutcome is stopped', async () => {
    server = await loopback(() => undefined);
    const wallet = server.wallet();
    const early = await wallet.charges
      .verify('order_1042', { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(printed(early)).toContain('AbortError');
    const controller = new AbortController();
    controller.abort(new DOMException('left the page', 'AbortError'));
    const waited = await wallet.charges
      .waitForOutcome('order_1042', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(printed(waited)).toContain('left the page');
  });
});

describe('objects in a cause chain', () => {
  it('are summarised, never passed through: a custom fetch that attaches the Request it tried', async () => {
    const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const failure = new TypeError('fetch failed', {
        cause: { request, headers: request.headers, tried: new Map([['key', TEST_KEY]]) },
      });
      Object.assign(failure, {
        request,
        body: Buffer.from(`Bearer ${TEST_KEY}`),
        client: new (class Pool {
          key = TEST_KEY;
        })(),
      });
      return Promise.reject(failure);
    };
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://api.wallet.test', fetch, maxRetries: 0 });
    const error = (await wallet.charges.verify('order_1042').catch((e: unknown) => e)) as Error;
    const cause = error.cause as Record<string, unknown>;
    expect(cause).toBeInstanceOf(Error);
    expect(cause.request).toEqual({
      type: 'Request',
      summary: 'GET https://api.wallet.test/v1/charges/verify/order_1042',
    });
    expect(cause.body).toEqual({ type: 'Buffer', summary: `${`Bearer ${TEST_KEY}`.length} bytes` });
    expect(cause.client).toEqual({ type: 'Pool', summary: 'an instance of Pool' });
    const inner = cause.cause as Record<string, unknown>;
    expect(inner.request).not.toBeInstanceOf(Request);
    expect(inner.headers).toMatchObject({ type: 'Headers' });
    expect(inner.tried).toEqual({ type: 'Map', summary: '1 entries' });
    const text = printed(error);
    expect(text).not.toContain('Bearer sk_');
    expectNoKey(text);
  });

  it('print without throwing when they are hostile: a revoked Proxy, a throwing getter, a cycle, a bigint', async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    const hostile = Object.defineProperty({ proxy, cyclic }, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    const fetch = (): Promise<Response> => Promise.reject(new TypeError('fetch failed', { cause: hostile }));
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://api.wallet.test', fetch, maxRetries: 0 });
    const error = await wallet.charges.verify('order_1042').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectionError' });
    expect(printed(error)).toContain('fetch failed');
  });

  it('keep what is readable beside what throws: a throwing getter loses only its own value', async () => {
    const order = Object.defineProperty({ orderId: 'order_1042', n: 1n }, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    const trap = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    const fetch = (): Promise<Response> =>
      Promise.reject(new TypeError('fetch failed', { cause: { order, trap } }));
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://api.wallet.test', fetch, maxRetries: 0 });
    const error = (await wallet.charges.verify('order_1042').catch((e: unknown) => e)) as Error;
    expect((error.cause as Error).cause).toEqual({
      order: { orderId: 'order_1042', n: '1n', boom: undefined },
      trap: { type: 'Object', summary: 'an instance of Object' },
    });
  });
});
