/**
 * Outcome truth, scenario by scenario: what `outcomeUnknown` tells a merchant must match what the
 * server saw. Unknown when an attempt may have acted and no answer was definitive; known (false)
 * when nothing can have reached the service or it answered definitively. Refused locally means
 * never retried, never a "connection problem of the service".
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWalletError, Wallet, type ClientOptions } from '@wallet/node';
import { sendJson, startServer, type Arrived, type TestServer } from './helpers/server.js';
import { SECRET_KEY } from './helpers/surfaces.js';

type Script = (req: Arrived, res: ServerResponse, n: number) => void;

describe('outcome truth: outcomeUnknown says exactly whether the service may have acted', () => {
  let server: TestServer;
  let script: Script = () => undefined;
  let count = 0;
  beforeAll(async () => {
    server = await startServer((req, res) => script(req, res, ++count));
  });
  afterAll(() => server.close());

  async function refund(options: Partial<ClientOptions>, steps: Script) {
    script = steps;
    count = 0;
    const wallet = new Wallet({
      apiKey: SECRET_KEY,
      baseUrl: server.url,
      timeout: 300,
      maxRetries: 1,
      logLevel: 'off',
      ...options,
    });
    try {
      await wallet.refunds.create({ reference: 'order_1', amount: 100 });
      return { error: undefined as unknown, requests: count };
    } catch (error) {
      return { error: error as Record<string, unknown>, requests: count };
    } finally {
      await wallet.close();
    }
  }
  const fail = (res: ServerResponse, status: number) =>
    sendJson(res, status, { status: 'error', message: 'no' });

  it('attempt 1 executes and drops, attempt 2 answers 503: unknown (the first may have acted)', async () => {
    const { error, requests } = await refund({}, (req, res, n) =>
      n === 1 ? req.socket.destroy() : fail(res, 503),
    );
    expect(requests).toBe(2);
    expect(error).toMatchObject({
      name: 'InternalServerError',
      outcomeUnknown: true,
      attempts: 2,
      endpoint: 'POST /v1/refunds',
    });
    expect(typeof (error as { idempotencyKey?: unknown }).idempotencyKey).toBe('string');
  });

  it('a 502 on the only attempt: unknown (a gateway may have passed it on)', async () => {
    const { error, requests } = await refund({ maxRetries: 0 }, (_req, res) => fail(res, 502));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ name: 'InternalServerError', outcomeUnknown: true, attempts: 1 });
  });

  it('attempt 1 times out, attempt 2 answers 422: still unknown', async () => {
    const { error } = await refund({}, (_req, res, n) => (n === 1 ? undefined : fail(res, 422)));
    expect(error).toMatchObject({ name: 'UnprocessableEntityError', outcomeUnknown: true, attempts: 2 });
  });

  it('a definitive 4xx on the only attempt: known (false), not retried', async () => {
    const { error, requests } = await refund({}, (_req, res) => fail(res, 409));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ name: 'ConflictError', outcomeUnknown: false, attempts: 1 });
  });

  it('connection refused on every attempt: known (false), retried as usual', async () => {
    const wallet = new Wallet({
      apiKey: SECRET_KEY,
      baseUrl: 'http://127.0.0.1:1',
      maxRetries: 1,
      logLevel: 'off',
    });
    const error = await wallet.refunds.create({ reference: 'order_1' }).catch((e: unknown) => e);
    await wallet.close();
    expect(error).toMatchObject({ outcomeUnknown: false, attempts: 2 });
    expect(isWalletError(error)).toBe(true);
  });

  it('a header value refused locally (control character): ValidationError before sending, 0 requests', async () => {
    count = 0;
    const wallet = new Wallet({ apiKey: SECRET_KEY, baseUrl: server.url, logLevel: 'off' });
    const error = await wallet.refunds
      .create({ reference: 'order_1' }, { headers: { 'x-shop': 'a\u0007b' } })
      .catch((e: unknown) => e);
    await wallet.close();
    expect(error).toMatchObject({ name: 'ValidationError', outcomeUnknown: false });
    expect(count).toBe(0);
  });

  it('a non-Latin-1 shop name in appInfo is refused at construction or encoded: never "outcome unknown" with 0 requests', async () => {
    const { error, requests } = await refund({ appInfo: { name: 'Ṣọ́pù Adé' } }, (_req, res) =>
      sendJson(res, 200, {
        status: 'success',
        data: { refundReference: 'rf_1', amount: 100, currency: 'NGN', status: 'PROCESSED' },
      }),
    ).catch((e: unknown) => ({ error: e as Record<string, unknown>, requests: 0 }));
    if (error !== undefined) expect(error).toMatchObject({ name: 'ValidationError', outcomeUnknown: false });
    else expect(requests).toBe(1);
  });

  it('a closed client refuses new calls: ClientClosedError, outcome known, nothing sent', async () => {
    count = 0;
    const wallet = new Wallet({ apiKey: SECRET_KEY, baseUrl: server.url, logLevel: 'off' });
    await wallet.close();
    const error = await wallet.refunds.create({ reference: 'order_1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientClosedError', code: 'client_closed', outcomeUnknown: false });
    expect(count).toBe(0);
  });

  it('close() while a POST waits to retry lets it finish: the retry is sent and its answer returned', async () => {
    script = (_req, res, n) =>
      n === 1
        ? fail(res, 503)
        : sendJson(res, 200, {
            status: 'success',
            data: { refundReference: 'rf_1', amount: 100, currency: 'NGN', status: 'PROCESSED' },
          });
    count = 0;
    const wallet = new Wallet({ apiKey: SECRET_KEY, baseUrl: server.url, maxRetries: 1, logLevel: 'off' });
    const call = wallet.refunds.create({ reference: 'order_1', amount: 100 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = wallet.close();
    await expect(call).resolves.toMatchObject({ refundReference: 'rf_1' });
    await closing;
    expect(count).toBe(2);
  });
});
