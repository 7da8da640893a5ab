import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  formatNaira,
  isApiError,
  NotFoundError,
  toKobo,
  ValidationError,
  Wallet,
  WalletError,
} from '@wallet/node';
import { parseRetryAfter } from '../src/core/retry.js';
import { json, loopback } from './helpers/loopback.js';
import { BASE_URL, resolved, TEST_KEY } from './helpers/mock-service.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const thrown = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
};
const deep = (n: number) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { v };
  return v as never;
};

describe('every public function types its failures', () => {
  const wallet = () => new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL });
  it.each([
    ['verify with a lone surrogate', () => wallet().charges.verify('order_\uD800'), /unpaired surrogate/],
    [
      'metadata nested 20,000 deep',
      () =>
        wallet().charges.dispatch({
          reference: 'r',
          bankId: 'b',
          authChannel: 'wallet_qr',
          metadata: deep(20_000),
        }),
      /deeper than 32 levels/,
    ],
    [
      'a description with a lone surrogate',
      () =>
        wallet().charges.dispatch({
          reference: 'r',
          bankId: 'b',
          authChannel: 'wallet_qr',
          description: 'a\uDC00',
        }),
      /description: contains an unpaired surrogate/,
    ],
    [
      'a metadata value with a lone surrogate',
      () =>
        wallet().charges.dispatch({
          reference: 'r',
          bankId: 'b',
          authChannel: 'wallet_qr',
          metadata: { n: ['\uD800'] },
        }),
      /metadata\.n\.0: contains an unpaired surrogate/,
    ],
    [
      'params read through a throwing Proxy',
      () =>
        wallet().refunds.create(
          new Proxy(
            {},
            {
              ownKeys: () => {
                throw new Error('x');
              },
            },
          ) as never,
        ),
      /could not be read/,
    ],
  ])('%s: ValidationError, nothing sent', async (_, call, message) => {
    const error = await (call() as Promise<unknown>).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(message);
  });

  it.each([
    ['an unknown locale', () => formatNaira(100, { locale: 'not a locale!!' }), /options\.locale/],
    ['null options', () => formatNaira(100, null as never), /must be an object, not null/],
    ['a misspelled option', () => formatNaira(100, { locle: 'en-NG' } as never), /did you mean 'locale'/],
    ['a symbol', () => toKobo(Symbol('x') as never), /expected a number or a string/],
    ['a 10 000-digit string', () => toKobo('9'.repeat(10_000)), /too long/],
    [
      'a misspelled client option',
      () => new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, timout: 5 } as never),
      /timout: is not an option of Wallet \(did you mean 'timeout'\?\)/,
    ],
    [
      'appInfo that is a string',
      () => new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, appInfo: 'shop' as never }),
      /appInfo: must be an object/,
    ],
    [
      'a null logger',
      () => new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, logger: null as never }),
      /logger: must have/,
    ],
    [
      'a null logLevel',
      () => new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, logLevel: null as never }),
      /logLevel: must be/,
    ],
    [
      'a null apiKey, which must not fall back to the env',
      () => new Wallet({ apiKey: null as never, baseUrl: BASE_URL }),
      /apiKey: must be a string/,
    ],
    [
      'a string maxConnections',
      () => new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, maxConnections: '8' as never }),
      /maxConnections/,
    ],
  ])('%s: ValidationError naming the problem', (_, call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(message);
  });

  it('a misspelled request option gets "did you mean" from the same checker', async () => {
    const error = await wallet()
      .charges.verify('r', { timout: 5 } as never)
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      "options.timout: is not a request option (did you mean 'timeout'?)",
    );
  });
});

describe('Retry-After is read strictly', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it.each([
    ['120', 120_000],
    ['0', 0],
    ['Sun, 22 Nov 2026 12:00:30 GMT', 30_000],
    ['Sunday, 22-Nov-26 12:00:30 GMT', 30_000],
    ['Sun Nov 22 12:00:30 2026', 30_000],
    ['-5', undefined],
    ['5, 5', undefined],
    ['1.5', undefined],
    ['9'.repeat(400), undefined],
    ['tomorrow', undefined],
    ['2026-11-22T12:00:30Z', undefined],
  ])('%j gives %j', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it('a junk Retry-After on a 503 waits the normal backoff, not zero', async () => {
    const times: number[] = [];
    server = await loopback((_req, res, n) => {
      times.push(performance.now());
      json(
        res,
        n === 1 ? 503 : 200,
        n === 1 ? { status: 'error', message: 'x' } : { status: 'success', data: resolved },
        { 'retry-after': '-5' },
      );
    });
    await server.wallet().charges.resolveHandle({ handle: '@ada', amount: 5, reference: 'r' });
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(370);
  });
});

describe('bounded work on hostile error bodies', () => {
  it('a 404 of 400 KB of "<" becomes an error read from its first 8 KiB only', async () => {
    // Past the first 8 KiB, the tag closes and visible text follows: a scan that read on (work
    // growing with the body) would put it in the message.
    server = await loopback((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(`${'<'.repeat(200_000)}>beyond the scanned prefix${'a'.repeat(200_000)}`);
    });
    const error = await server
      .wallet()
      .charges.verify('r')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).not.toContain('beyond');
    expect((error as NotFoundError).body).toBe('');
  });

  it('JSON.stringify of an error whose body is 100 000 levels deep does not throw', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('['.repeat(100_000) + ']'.repeat(100_000));
    });
    const error = await server
      .wallet()
      .charges.verify('r')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const text = JSON.stringify(error);
    expect(JSON.parse(text)).toMatchObject({
      name: 'BadRequestError',
      code: 'bad_request',
      outcomeUnknown: false,
    });
    expect(text.length).toBeLessThan(10_000);
  });
});

describe('merchant subclasses of the error tree', () => {
  class Declined extends ApiError {}
  it('work like any class hierarchy', () => {
    const init = {
      status: 404,
      message: 'x',
      body: {},
      headers: {},
      idempotencyKey: undefined,
      endpoint: 'GET /x',
    };
    const notFound = new NotFoundError(init);
    const declined = new Declined(init);
    expect(notFound).not.toBeInstanceOf(Declined);
    expect(declined).toBeInstanceOf(Declined);
    expect(declined).toBeInstanceOf(ApiError);
    expect(declined).toBeInstanceOf(WalletError);
    expect(declined).not.toBeInstanceOf(NotFoundError);
    expect(isApiError(declined)).toBe(true);
    expect(declined.code).toBe('api_error');
  });
});
