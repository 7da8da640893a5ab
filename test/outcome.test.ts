import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  isWalletError,
  NotFoundError,
  RequestAbortedError,
  ResponseTooLargeError,
  ValidationError,
  Wallet,
} from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { dispatched, refunded, TEST_KEY } from './helpers/mock-service.js';
import { caught } from './helpers/caught.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const success = (data: unknown) => ({ status: 'success', message: 'OK', data });
const refund = { reference: 'order_1042', amount: 450_000 };

describe('outcomeUnknown tells the truth across attempts', () => {
  it('stays true when a dropped attempt is followed by a 5xx', async () => {
    server = await loopback((req, res, n) =>
      n === 1
        ? req.socket.destroy()
        : json(res, 503, { status: 'error', message: 'Down' }, { 'retry-after': '0' }),
    );
    const error = await caught(
      server.wallet({ maxRetries: 1 }).refunds.create(refund, { idempotencyKey: 'rf-1' }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      outcomeUnknown: true,
      attempts: 2,
      idempotencyKey: 'rf-1',
      endpoint: 'POST /v1/refunds',
    });
  });

  it('stays true when a dropped attempt is followed by a 409', async () => {
    server = await loopback((req, res, n) =>
      n === 1 ? req.socket.destroy() : json(res, 409, { status: 'error', message: 'In progress' }),
    );
    const error = await caught(server.wallet().charges.dispatch({ ...dispatch }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ outcomeUnknown: true, attempts: 2 });
  });

  it('is false for a definitive 404 and for every GET', async () => {
    server = await loopback((_req, res) => json(res, 404, { status: 'error', message: 'No such reference' }));
    const post = await caught(server.wallet().refunds.create(refund));
    expect(post).toBeInstanceOf(NotFoundError);
    expect(post).toMatchObject({ outcomeUnknown: false, attempts: 1 });
    const get = await caught(server.wallet().charges.verify('order_1042'));
    expect(get).toMatchObject({ outcomeUnknown: false, attempts: 1, idempotencyKey: undefined });
  });

  it('is false for a refused connection, which is retried and names the host and ECONNREFUSED', async () => {
    server = await loopback(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: url, maxRetries: 1 });
    const error = await caught(wallet.refunds.create(refund, { idempotencyKey: 'rf-2' }));
    await wallet.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: false, attempts: 2, idempotencyKey: 'rf-2' });
    expect(error?.message).toContain(`Could not reach ${new URL(url).host} (ECONNREFUSED)`);
    expect(error?.message).toContain('Nothing reached the service');
  });

  it('is false for a DNS failure (ENOTFOUND)', async () => {
    const dispatcher = new Agent({
      connect: {
        lookup: (_host, _options, callback) =>
          callback(
            Object.assign(new Error('getaddrinfo ENOTFOUND pay.example.ng'), { code: 'ENOTFOUND' }),
            '',
            4,
          ),
      },
    });
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: 'https://pay.example.ng',
      dispatcher,
      maxRetries: 0,
    });
    const error = await caught(wallet.charges.dispatch(dispatch));
    await dispatcher.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: false });
    expect(error?.message).toContain('Could not reach pay.example.ng (ENOTFOUND)');
  });

  it('reports a request refused locally as final and typed, never retried, nothing sent', async () => {
    let calls = 0;
    const refusing = {
      dispatch: (_options: unknown, handler: { onResponseError(controller: null, error: Error): void }) => {
        calls++;
        handler.onResponseError(null, new undiciErrors.InvalidArgumentError('invalid x-tenant header'));
        return false;
      },
    } as unknown as Dispatcher;
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://pay.example.ng', dispatcher: refusing });
    const error = await caught(wallet.charges.dispatch(dispatch));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ outcomeUnknown: false, attempts: 1 });
    expect(calls).toBe(1);
  });

  it('reports a closed dispatcher as ClientClosedError, not an unknown outcome', async () => {
    const agent = new Agent();
    await agent.close();
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://pay.example.ng', dispatcher: agent });
    const error = await caught(wallet.charges.dispatch(dispatch));
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(error).toMatchObject({ outcomeUnknown: false, attempts: 1 });
  });

  it('is true when the caller aborts during the wait after a 5xx', async () => {
    server = await loopback((_req, res) =>
      json(res, 500, { status: 'error', message: 'boom' }, { 'retry-after': '15' }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await caught(server.wallet().refunds.create(refund, { signal: controller.signal }));
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ outcomeUnknown: true, attempts: 1 });
  });

  it('can be read on any WalletError, false outside a call', () => {
    const error = new ValidationError('x', []);
    expect(isWalletError(error) && error.outcomeUnknown).toBe(false);
  });
});

const dispatch = { reference: 'order_1042', bankId: 'bnk_01', authChannel: 'wallet_push' } as const;

describe('responses over 1 MiB', () => {
  it('end in ResponseTooLargeError at once, not retried, outcome unknown on a 2xx POST', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    server = await loopback((_req, res) => json(res, 200, success({ ...refunded, pad: big })));
    const error = await caught(server.wallet().refunds.create(refund));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      code: 'response_too_large',
      status: 200,
      attempts: 1,
      outcomeUnknown: true,
    });
    expect(server.received).toHaveLength(1);
  });

  it('are cut off by their declared length, even when the body only trickles', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': String(2 * 1024 ** 3) });
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    });
    // No deadline ends it within the test: only the declared length can, as the headers arrive.
    const patient = server.wallet({ timeout: 3_600_000, totalTimeout: 3_600_000 });
    const error = await caught(patient.refunds.create(refund));
    expect(error).toMatchObject({ name: 'ResponseTooLargeError', status: 404, outcomeUnknown: false });
  });
});

describe('close()', () => {
  it('lets a POST in backoff finish its retries, then refuses new calls with nothing sent', async () => {
    server = await loopback((_req, res, n) =>
      n === 1
        ? json(res, 503, { status: 'error', message: 'Busy' }, { 'retry-after': '1' })
        : json(res, 200, success(dispatched)),
    );
    const wallet = server.wallet();
    const call = wallet.charges.dispatch(dispatch).withResponse();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = wallet.close();
    const late = await caught(wallet.charges.verify('order_1042'));
    const { response } = await call;
    await closing;
    expect(response.attempts).toBe(2);
    expect(late).toBeInstanceOf(ClientClosedError);
    expect(late).toMatchObject({ code: 'client_closed', outcomeUnknown: false, attempts: 0 });
    expect(server.received).toHaveLength(2);
  });
});
