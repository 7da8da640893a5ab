import { describe, expect, expectTypeOf, it } from 'vitest';
import { VERSION, Wallet, type Transaction } from '@wallet/node';
import {
  BASE_URL,
  dispatched,
  http,
  mockService,
  ok,
  paid,
  refunded,
  resolved,
  TEST_KEY,
} from './helpers/mock-service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the mock harness', () => {
  it('sees every request the SDK makes through undici, so a bypassed mock fails the test', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/charges/resolve-handle`, () => ok(resolved)));
    await mock.wallet().charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_1042' });
    expect(mock.seen).toHaveLength(1);
    expect(mock.seen[0]!.url.href).toBe(`${BASE_URL}/v1/charges/resolve-handle`);
  });

  it('fails a call that no handler answers instead of reaching the network', async () => {
    const mock = mockService();
    await expect(mock.wallet().charges.verify('order_1042')).rejects.toMatchObject({
      name: 'ConnectionError',
    });
    expect(mock.unhandled).toEqual([`GET ${BASE_URL}/v1/charges/verify/order_1042`]);
  });
});

describe('charges.resolveHandle', () => {
  it('POSTs the handle, amount and reference as JSON with auth, idempotency and SDK headers', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/charges/resolve-handle`, () => ok(resolved, 'Customer found')),
    );
    const data = await mock
      .wallet()
      .charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_1042' });

    const [request] = mock.seen;
    expect(request!.method).toBe('POST');
    expect(JSON.parse(request!.body)).toEqual({ handle: '@ada', amount: 500_000, reference: 'order_1042' });
    expect(request!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(request!.headers.get('accept')).toBe('application/json');
    expect(request!.headers.get('user-agent')).toContain(`wallet-node/${VERSION}`);
    expect(request!.headers.get('x-idempotency-key')).toMatch(UUID);
    expect(data).toEqual(resolved);
  });

  it('sends a phone number handle exactly as given', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/charges/resolve-handle`, () => ok(resolved)));
    await mock.wallet().charges.resolveHandle({ handle: '0800 000 0001', amount: 100, reference: 'r1' });
    expect(JSON.parse(mock.seen[0]!.body).handle).toBe('0800 000 0001');
  });
});

describe('charges.dispatch', () => {
  it('POSTs reference, bankId, channel, description and metadata', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/charges/dispatch`, () => ok(dispatched, 'Prompt sent')),
    );
    const params = {
      reference: 'order_1042',
      bankId: 'bnk_01',
      authChannel: 'wallet_push' as const,
      description: 'Order #1042',
      metadata: { cart: ['sku_1', 'sku_2'], priority: 1, gift: false, note: null },
    };
    const data = await mock.wallet().charges.dispatch(params);
    expect(JSON.parse(mock.seen[0]!.body)).toEqual(params);
    expect(data).toEqual(dispatched);
  });

  it('returns the QR code URL of a wallet_qr dispatch', async () => {
    const qr = {
      ...dispatched,
      status: 'PENDING_SCAN',
      authChannel: 'wallet_qr',
      qrCodeUrl: 'https://qr.wallet.test/x.png',
    };
    const mock = mockService(http.post(`${BASE_URL}/v1/charges/dispatch`, () => ok(qr)));
    const data = await mock
      .wallet()
      .charges.dispatch({ reference: 'order_1042', bankId: 'b', authChannel: 'wallet_qr' });
    expect(data.qrCodeUrl).toBe('https://qr.wallet.test/x.png');
    expect(data.status).toBe('PENDING_SCAN');
  });
});

describe('charges.verify', () => {
  it('GETs the reference with no body and no idempotency key', async () => {
    const mock = mockService(http.get(`${BASE_URL}/v1/charges/verify/:reference`, () => ok(paid, null)));
    const tx = await mock.wallet().charges.verify('order_1042');
    const [request] = mock.seen;
    expect(request!.method).toBe('GET');
    expect(request!.url.pathname).toBe('/v1/charges/verify/order_1042');
    expect(request!.body).toBe('');
    expect(request!.headers.has('x-idempotency-key')).toBe(false);
    expect(request!.headers.has('content-type')).toBe(false);
    expect(tx).toEqual(paid);
    expectTypeOf(tx).toEqualTypeOf<Transaction>();
  });
});

describe('refunds.create', () => {
  it('POSTs a partial refund with its amount and reason', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/refunds`, () => ok(refunded, 'Refund processed')));
    const data = await mock
      .wallet()
      .refunds.create({ reference: 'order_1042', amount: 100_000, reason: 'Out of stock' });
    expect(JSON.parse(mock.seen[0]!.body)).toEqual({
      reference: 'order_1042',
      amount: 100_000,
      reason: 'Out of stock',
    });
    expect(data).toEqual(refunded);
  });

  it('sends no amount key at all for a full refund', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/refunds`, () => ok({ ...refunded, amount: 500_000 })));
    await mock.wallet().refunds.create({ reference: 'order_1042' });
    expect(mock.seen[0]!.body).toBe('{"reference":"order_1042"}');
  });
});

describe('withResponse', () => {
  it('reports the envelope message, status, headers, idempotency key and attempts of a success', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/refunds`, () =>
        ok(refunded, 'Refund processed', { headers: { 'x-request-id': 'req_9' } }),
      ),
    );
    const { data, response } = await mock
      .wallet()
      .refunds.create({ reference: 'order_1042' }, { idempotencyKey: 'refund-order_1042' })
      .withResponse();
    expect(data.refundReference).toBe('rf_001');
    expect(response).toMatchObject({
      status: 200,
      message: 'Refund processed',
      idempotencyKey: 'refund-order_1042',
      attempts: 1,
    });
    expect(response.headers['x-request-id']).toBe('req_9');
    expect(mock.seen[0]!.headers.get('x-idempotency-key')).toBe('refund-order_1042');
  });

  it('has no message for verify, whose envelope carries none', async () => {
    const mock = mockService(http.get(`${BASE_URL}/v1/charges/verify/order_1042`, () => ok(paid, null)));
    const { response } = await mock.wallet().charges.verify('order_1042').withResponse();
    expect(response.message).toBeUndefined();
    expect(response.idempotencyKey).toBeUndefined();
  });
});

describe('headers', () => {
  it('adds default, per-request and appInfo headers without letting them replace the SDK’s own', async () => {
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    const wallet = mock.wallet({
      defaultHeaders: { 'x-shop': 'lekki' },
      appInfo: { name: 'LekkiMart', version: '2.1.0' },
    });
    await wallet.charges.verify('r', { headers: { 'x-trace': 't1' } });
    const headers = mock.seen[0]!.headers;
    expect(headers.get('x-shop')).toBe('lekki');
    expect(headers.get('x-trace')).toBe('t1');
    expect(headers.get('user-agent')).toMatch(/^wallet-node\/\S+ node\/\S+ LekkiMart\/2\.1\.0$/);
    await expect(
      wallet.charges.verify('r', { headers: { Authorization: 'Bearer other' } }),
    ).rejects.toMatchObject({
      name: 'ValidationError',
    });
    expect(mock.seen).toHaveLength(1);
  });

  it('mounts a base URL with a path prefix in front of /v1', async () => {
    const mock = mockService(
      http.get(`${BASE_URL}/gateway/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: `${BASE_URL}/gateway/`,
      dispatcher: mock.dispatcher,
    });
    await wallet.charges.verify('r');
    expect(mock.seen[0]!.url.pathname).toBe('/gateway/v1/charges/verify/r');
  });
});
