import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, InternalServerError, RateLimitError, type RequestRetryMessage } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { dispatched, paid, refunded } from './helpers/mock-service.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const success = (data: unknown) => ({ status: 'success', message: 'OK', data });
const dispatch = { reference: 'order_1042', bankId: 'bnk_01', authChannel: 'wallet_push' } as const;

describe('automatic retries', () => {
  it('retries a 5xx and succeeds, sending one idempotency key on every attempt', async () => {
    server = await loopback((_req, res, n) =>
      n < 3
        ? json(res, 503, { status: 'error', message: 'Try again' }, { 'retry-after': '0' })
        : json(res, 200, success(dispatched)),
    );
    const { data, response } = await server.wallet().charges.dispatch(dispatch).withResponse();
    expect(data.reference).toBe('order_1042');
    expect(response.attempts).toBe(3);
    const keys = server.received.map((r) => r.headers['x-idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(response.idempotencyKey);
    expect(server.received.map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify(dispatch)));
  });

  it('retries after the connection is reset, then succeeds with the same key', async () => {
    server = await loopback((req, res, n) =>
      n === 1 ? req.socket.destroy() : json(res, 200, success(refunded)),
    );
    const { response } = await server
      .wallet()
      .refunds.create({ reference: 'order_1042' }, { idempotencyKey: 'rf-1' })
      .withResponse();
    expect(response.attempts).toBe(2);
    expect(server.received.map((r) => r.headers['x-idempotency-key'])).toEqual(['rf-1', 'rf-1']);
  });

  it('backs off about 0.5 s then 1 s between attempts, with jitter, and waits each delay out', async () => {
    // The delays the SDK chose, from its retry channel; the server's clock shows they were waited.
    const delays: number[] = [];
    const onRetry = (message: unknown): void => void delays.push((message as RequestRetryMessage).delay);
    diagnostics.subscribe('wallet:request:retry', onRetry);
    const times: number[] = [];
    server = await loopback((_req, res, n) => {
      times.push(performance.now());
      json(res, n < 3 ? 500 : 200, n < 3 ? { status: 'error', message: 'boom' } : success(paid));
    });
    try {
      await server.wallet().charges.verify('order_1042');
    } finally {
      diagnostics.unsubscribe('wallet:request:retry', onRetry);
    }
    const [first, second] = delays as [number, number];
    expect(delays).toHaveLength(2);
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(750);
    expect(second).toBeLessThanOrEqual(1_000);
    // Lower bounds only: a loaded machine can make a wait longer, never shorter.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(first - 5);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(second - 5);
  });

  it('waits the Retry-After of a 429, given in seconds', async () => {
    const times: number[] = [];
    server = await loopback((_req, res, n) => {
      times.push(performance.now());
      if (n === 1) json(res, 429, { status: 'error', message: 'Slow down' }, { 'retry-after': '1' });
      else json(res, 200, success(paid));
    });
    await server.wallet().charges.verify('order_1042');
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('waits the Retry-After of a 429, given as an HTTP date', async () => {
    server = await loopback((_req, res, n) => {
      if (n === 1)
        json(
          res,
          429,
          { status: 'error', message: 'Slow down' },
          { 'retry-after': new Date(Date.now() - 1000).toUTCString() },
        );
      else json(res, 200, success(paid));
    });
    const { response } = await server.wallet().charges.verify('order_1042').withResponse();
    expect(response.attempts).toBe(2);
  });

  it('does not retry when the service asks to wait more than 60 s, and says how long', async () => {
    server = await loopback((_req, res) =>
      json(res, 429, { status: 'error', message: 'Quota' }, { 'retry-after': '120' }),
    );
    const wallet = server.wallet({ logLevel: 'off' });
    await expect(wallet.charges.verify('order_1042')).rejects.toMatchObject({
      name: 'RateLimitError',
      retryAfter: 120,
    });
    expect(server.received).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409, 422])('never retries HTTP %i', async (status) => {
    server = await loopback((_req, res) => json(res, status, { status: 'error', message: 'No' }));
    await expect(server.wallet().charges.dispatch(dispatch)).rejects.toMatchObject({ status });
    expect(server.received).toHaveLength(1);
  });

  it('retries a 408', async () => {
    server = await loopback((_req, res, n) =>
      json(res, n === 1 ? 408 : 200, n === 1 ? { status: 'error', message: 'Timeout' } : success(paid), {
        'retry-after': '0',
      }),
    );
    await expect(server.wallet().charges.verify('order_1042')).resolves.toMatchObject({ status: 'SUCCESS' });
    expect(server.received).toHaveLength(2);
  });

  it('makes exactly one attempt with maxRetries: 0, per client or per call', async () => {
    server = await loopback((_req, res) => json(res, 503, { status: 'error', message: 'Down' }));
    await expect(server.wallet({ maxRetries: 0 }).charges.verify('r')).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.received).toHaveLength(1);
    await expect(server.wallet().charges.verify('r', { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.received).toHaveLength(2);
  });

  it('gives up after maxRetries with the last error', async () => {
    server = await loopback((_req, res) =>
      json(res, 429, { status: 'error', message: 'Busy' }, { 'retry-after': '0' }),
    );
    const error = await server
      .wallet({ maxRetries: 3 })
      .charges.verify('r')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.received).toHaveLength(4);
  });
});

describe('connection failures', () => {
  it('on a POST, says the outcome is unknown and carries the idempotency key to retry with', async () => {
    server = await loopback((req) => req.socket.destroy());
    const error = (await server
      .wallet({ maxRetries: 1 })
      .charges.dispatch(dispatch, { idempotencyKey: 'dsp-1' })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      code: 'connection_error',
      idempotencyKey: 'dsp-1',
      outcomeUnknown: true,
      attempts: 2,
    });
    expect(error.message).toContain('POST /v1/charges/dispatch');
    expect(error.message).toContain('The outcome is unknown');
    expect(error.message).toContain("idempotencyKey 'dsp-1'");
    expect(error.cause).toBeInstanceOf(Error);
    expect(server.received).toHaveLength(2);
  });

  it('on a GET, has no idempotency key and no unknown outcome', async () => {
    server = await loopback((req) => req.socket.destroy());
    const error = (await server
      .wallet({ maxRetries: 0 })
      .charges.verify('r')
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toMatchObject({
      name: 'ConnectionError',
      idempotencyKey: undefined,
      outcomeUnknown: false,
    });
  });

  it('reports a refused connection as a ConnectionError after its retries', async () => {
    server = await loopback(() => undefined);
    const url = server.url;
    await server.close();
    const { Wallet } = await import('@wallet/node');
    const wallet = new Wallet({ apiKey: 'sk_test_x1', baseUrl: url, maxRetries: 1 });
    await expect(wallet.charges.verify('r')).rejects.toMatchObject({ name: 'ConnectionError', attempts: 2 });
    await wallet.close();
  });
});
