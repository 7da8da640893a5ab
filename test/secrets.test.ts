import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import {
  BASE_URL,
  http,
  HttpResponse,
  mockService,
  ok,
  paid,
  resolved,
  TEST_KEY,
} from './helpers/mock-service.js';

// The service answers about the reference asked (verify refuses any other).
const about = (url: string | undefined) => ({
  ...paid,
  reference: decodeURIComponent(String(url).split('/').pop() ?? ''),
});

const secretParts = [TEST_KEY, TEST_KEY.slice(8)];
function expectNoKey(text: string) {
  for (const part of secretParts) expect(text).not.toContain(part);
}

function recorder() {
  const lines: string[] = [];
  const write = (message: string, details?: unknown) =>
    lines.push(`${message} ${details ? inspect(details, { depth: 9 }) : ''}`);
  return { lines, logger: { debug: write, info: write, warn: write, error: write } };
}

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the secret key never shows', () => {
  it('in util.inspect, console output or JSON.stringify of the client', () => {
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL });
    expectNoKey(inspect(wallet, { depth: 9, showHidden: true }));
    expectNoKey(JSON.stringify(wallet));
    expectNoKey(JSON.stringify({ ...wallet }));
    expectNoKey(inspect(wallet.charges, { depth: 9, showHidden: true }));
    expect(inspect(wallet)).toBe(`Wallet { mode: 'test', baseUrl: '${BASE_URL}' }`);
  });

  it('in API errors, even when the server echoes the Authorization header back', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/refunds`, ({ request }) =>
        HttpResponse.json(
          { status: 'error', message: `Bad token ${request.headers.get('authorization')}` },
          { status: 401, headers: { 'x-echo': request.headers.get('authorization') ?? '' } },
        ),
      ),
    );
    const error = await mock
      .wallet()
      .refunds.create({ reference: 'r' })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('Bad token Bearer [redacted]');
    expectNoKey(inspect(error, { depth: 9, showHidden: true }));
    expectNoKey(JSON.stringify(error));
  });

  it("in a successful call's response headers, read one by one or all at once", async () => {
    // The SDK reads Date for a dispatch's expiry and builds response.headers only when asked:
    // both come out scrubbed.
    server = await loopback((req, res) => {
      const echo = req.headers.authorization ?? '';
      json(
        res,
        200,
        { status: 'success', data: about(req.url) },
        { 'x-echo': echo, 'x-request-id': 'req_7' },
      );
    });
    const { response } = await server.wallet().charges.verify('order_1042').withResponse();
    expect(response.headers['x-echo']).toBe('Bearer [redacted]');
    expect(response.headers['x-request-id']).toBe('req_7');
    expectNoKey(JSON.stringify(response));
    expectNoKey(inspect(response, { depth: 9 }));
  });

  it('in connection errors and their causes', async () => {
    server = await loopback((req) => req.socket.destroy());
    const error = await server
      .wallet({ maxRetries: 0 })
      .charges.verify('r')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectionError' });
    expectNoKey(inspect(error, { depth: 9, showHidden: true }));
    expectNoKey(JSON.stringify(error));
  });

  it('in debug logs, which show method, path, status, attempt and timing', async () => {
    server = await loopback((_req, res, n) =>
      json(
        res,
        n === 1 ? 503 : 200,
        n === 1 ? { status: 'error', message: 'x' } : { status: 'success', data: resolved },
        { 'retry-after': '0' },
      ),
    );
    const { lines, logger } = recorder();
    await server
      .wallet({ logger, logLevel: 'debug' })
      .charges.resolveHandle({ handle: '@ada', amount: 5, reference: 'r' });
    const all = lines.join('\n');
    expectNoKey(all);
    expect(all).toMatch(/POST \/v1\/charges\/resolve-handle → HTTP 503 in \d+ ms \(attempt 1\/3\)/);
    expect(all).toMatch(/retrying in 0 ms \(HTTP 503\), attempt 2\/3/);
    expect(all).toMatch(/→ HTTP 200 in \d+ ms \(attempt 2\/3\)/);
  });
});

describe('a secret key given where an idempotency key goes', () => {
  it('is refused before sending, and the error never repeats it', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/refunds`, () => ok({})));
    const error = await mock
      .wallet()
      .refunds.create({ reference: 'order_1042', amount: 100 }, { idempotencyKey: TEST_KEY })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError', outcomeUnknown: false });
    expect((error as Error).message).toContain('options.idempotencyKey: holds your secret key');
    expectNoKey(inspect(error, { depth: 9 }) + JSON.stringify(error));
    expect(mock.seen).toEqual([]);
  });
});

describe('debug logs mask personal data', () => {
  it('masks a phone number given as the handle', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/charges/resolve-handle`, () => ok(resolved)));
    const { lines, logger } = recorder();
    await mock
      .wallet({ logger, logLevel: 'debug' })
      .charges.resolveHandle({ handle: '+2348031234567', amount: 5, reference: 'r' });
    const all = lines.join('\n');
    expect(all).not.toContain('2348031234567');
    expect(all).toContain('+**********567');
  });

  it('logs nothing below warn by default', async () => {
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    const { lines, logger } = recorder();
    await mock.wallet({ logger }).charges.verify('r');
    expect(lines).toEqual([]);
  });
});
