import { describe, expect, it } from 'vitest';
import type * as Sdk from '@wallet/node';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  isApiError,
  isWalletError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  WalletError,
} from '@wallet/node';
import {
  BASE_URL,
  fail,
  http,
  HttpResponse,
  mockService,
  ok,
  paid,
  refunded,
} from './helpers/mock-service.js';

const refundOnce = (answer: () => Response) => {
  const mock = mockService(http.post(`${BASE_URL}/v1/refunds`, answer));
  return {
    mock,
    call: () =>
      mock.wallet().refunds.create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'k-1' }),
  };
};

describe('error responses', () => {
  it.each([
    [400, BadRequestError, 'bad_request'],
    [401, AuthenticationError, 'authentication_failed'],
    [403, PermissionDeniedError, 'permission_denied'],
    [404, NotFoundError, 'not_found'],
    [409, ConflictError, 'conflict'],
    [422, UnprocessableEntityError, 'unprocessable_entity'],
    [429, RateLimitError, 'rate_limited'],
    [500, InternalServerError, 'internal_server_error'],
    [503, InternalServerError, 'internal_server_error'],
    [418, ApiError, 'api_error'],
  ] as const)(
    'maps HTTP %i to %o with the server message, body, headers and idempotency key',
    async (status, Class, code) => {
      const { call } = refundOnce(() =>
        fail(status, 'Refund exceeds the amount left', { headers: { 'x-request-id': 'req_1' } }),
      );
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toBeInstanceOf(WalletError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({
        name: Class.name,
        code,
        status,
        message: 'Refund exceeds the amount left',
        body: { status: 'error', message: 'Refund exceeds the amount left' },
        idempotencyKey: 'k-1',
        endpoint: 'POST /v1/refunds',
      });
      expect((error as ApiError).headers['x-request-id']).toBe('req_1');
    },
  );

  it('gives RateLimitError the Retry-After the service asked for', async () => {
    const { call } = refundOnce(() => fail(429, 'Slow down', { headers: { 'retry-after': '120' } }));
    await expect(call()).rejects.toMatchObject({ name: 'RateLimitError', retryAfter: 120 });
  });

  it('carries an excerpt of an HTML error page as text, not a JSON parse failure', async () => {
    const page = `<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>
      <body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>`;
    const { call } = refundOnce(
      () => new HttpResponse(page, { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    const error = (await call().catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBe('502 Bad Gateway 502 Bad Gateway nginx');
    expect(error.message).toBe('HTTP 502 Bad Gateway: 502 Bad Gateway 502 Bad Gateway nginx');
  });

  it('describes the status when the error body is empty', async () => {
    const { call } = refundOnce(() => new HttpResponse(null, { status: 422 }));
    await expect(call()).rejects.toMatchObject({
      name: 'UnprocessableEntityError',
      message: 'HTTP 422 Unprocessable Entity',
      body: '',
    });
  });

  it('treats a 2xx whose envelope status is "error" as an ApiError', async () => {
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/order_9`, () =>
        HttpResponse.json({ status: 'error', message: 'Transaction not found' }),
      ),
    );
    const error = await mock
      .wallet()
      .charges.verify('order_9')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 200,
      message: 'Transaction not found',
      code: 'api_error',
    });
  });
});

describe('response validation', () => {
  const verifyAnswering = (body: unknown) =>
    mockService(http.get(`${BASE_URL}/v1/charges/verify/order_1042`, () => HttpResponse.json(body as never)))
      .wallet()
      .charges.verify('order_1042');

  it('keeps fields the service adds and passes unknown statuses through as strings', async () => {
    const tx = await verifyAnswering({
      status: 'success',
      data: { ...paid, status: 'REVERSED', riskScore: 3, customer: { ...paid.customer, tier: 'gold' } },
    });
    expect(tx.status).toBe('REVERSED');
    expect(tx).toMatchObject({ riskScore: 3, customer: { tier: 'gold' } });
  });

  it('accepts absent or null paid-only fields on a charge that is not SUCCESS', async () => {
    const { fee: _f, netAmount: _n, settlement: _s, paidAt: _p, ...unpaid } = paid;
    const pending = await verifyAnswering({
      status: 'success',
      data: { ...unpaid, status: 'PENDING_AUTHORIZATION' },
    });
    expect(pending.fee).toBeUndefined();
    const failed = await verifyAnswering({
      status: 'success',
      data: { ...unpaid, status: 'FAILED', fee: null, netAmount: null, settlement: null, paidAt: null },
    });
    expect(failed.fee).toBeNull();
  });

  it.each([
    ['an amount that is not an integer', { ...paid, amount: 5000.5 }, 'data.amount'],
    ['an amount sent as a string', { ...paid, amount: '500000' }, 'data.amount'],
    ['a missing reference', { ...paid, reference: undefined }, 'data.reference'],
    ['a SUCCESS without its fee', { ...paid, fee: null }, 'data.fee'],
  ])('refuses %s with ResponseValidationError carrying the raw body', async (_, data, path) => {
    const body = { status: 'success', data };
    const error = (await verifyAnswering(body).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.body).toEqual(JSON.parse(JSON.stringify(body)));
    expect(error.issues.map((i) => i.path)).toContain(path);
  });

  it('refuses a 2xx body that is not JSON', async () => {
    const { call } = refundOnce(() => new HttpResponse('OK', { status: 200 }));
    await expect(call()).rejects.toMatchObject({ name: 'ResponseValidationError', body: 'OK' });
  });

  it('refuses a QR dispatch that has no QR code URL', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/charges/dispatch`, () =>
        ok({
          reference: 'r',
          status: 'PENDING_SCAN',
          authChannel: 'wallet_qr',
          expiresAt: '2026-11-21T10:00:00Z',
        }),
      ),
    );
    await expect(
      mock.wallet().charges.dispatch({ reference: 'r', bankId: 'b', authChannel: 'wallet_qr' }),
    ).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('accepts a refund response without refundedAt', async () => {
    const { refundedAt: _r, ...rest } = refunded;
    const { call } = refundOnce(() => ok(rest));
    await expect(call()).resolves.toEqual(rest);
  });
});

describe('errors of a call refused before sending', () => {
  it('name the call, with no attempt made: parameters, request options and a missing await alike', async () => {
    const { mock } = refundOnce(() => ok(refunded));
    const wallet = mock.wallet();
    const refusals = [
      wallet.refunds.create({ reference: 'order_1042', amount: 5.5 }),
      wallet.refunds.create({ reference: 'order_1042' }, { timeout: -1 }),
      wallet.charges.verify(''),
      wallet.charges.dispatch(Promise.resolve({}) as never),
    ];
    const errors = await Promise.all(refusals.map((call) => call.catch((e: unknown) => e)));
    expect(errors.map((e) => (e as WalletError).name)).toEqual(Array(4).fill('ValidationError'));
    expect(errors.map((e) => [(e as WalletError).endpoint, (e as WalletError).attempts])).toEqual([
      ['POST /v1/refunds', 0],
      ['POST /v1/refunds', 0],
      ['GET /v1/charges/verify/{reference}', 0],
      ['POST /v1/charges/dispatch', 0],
    ]);
    expect(mock.seen).toEqual([]);
  });
});

describe('error identity', () => {
  it('recognises errors from another copy of the package by name, for guards and instanceof', async () => {
    const distEntry = '../dist/index.js';
    const esm = (await import(distEntry)) as typeof Sdk;
    const { createRequire } = await import('node:module');
    const cjs = createRequire(import.meta.url)('../dist/index.cjs') as typeof Sdk;
    const init = {
      status: 404,
      message: 'No such reference',
      body: {},
      headers: {},
      idempotencyKey: undefined,
      endpoint: 'GET /x',
    };
    const foreign = new cjs.NotFoundError(init);
    expect(esm.NotFoundError).not.toBe(cjs.NotFoundError);
    expect(foreign).toBeInstanceOf(esm.NotFoundError);
    expect(foreign).toBeInstanceOf(esm.ApiError);
    expect(foreign).not.toBeInstanceOf(esm.ConflictError);
    expect(esm.isApiError(foreign)).toBe(true);
    expect(isWalletError(foreign)).toBe(true);
    expect(isApiError(new cjs.ValidationError('x', []))).toBe(false);
  });

  it('does not mistake an unrelated error that happens to share a name', () => {
    const impostor = Object.assign(new Error('x'), { name: 'NotFoundError' });
    expect(isWalletError(impostor)).toBe(false);
    expect(impostor).not.toBeInstanceOf(NotFoundError);
  });

  it('names the class in the stack trace', async () => {
    const { call } = refundOnce(() => fail(409, 'Duplicate reference'));
    const error = (await call().catch((e: unknown) => e)) as Error;
    expect(error.stack).toMatch(/^ConflictError: Duplicate reference/);
  });
});
