/**
 * A call's parameters and options are read once, into a plain copy that is both validated and
 * sent: a getter cannot change a value between the check and the send, and exotic inputs
 * (revoked proxies, throwing traps) end as a ValidationError with nothing sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { dispatched, refunded, TEST_KEY } from './helpers/mock-service.js';

const push = { reference: 'order_1042', bankId: 'bnk_1', authChannel: 'wallet_push' } as const;

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const throwingKeys = (): object =>
  new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('trap says no');
      },
    },
  );

describe('request parameters', () => {
  it('are read once: a metadata getter that changes after the first read sends what was checked', async () => {
    server = await loopback((_req, res) => json(res, 200, { status: 'success', data: dispatched }));
    let reads = 0;
    const metadata = {
      get orderId(): unknown {
        reads++;
        // A valid string when checked, a function (not JSON) if read again.
        return reads === 1 ? 'ord_1' : () => 'changed';
      },
    };
    await server.wallet().charges.dispatch({ ...push, metadata } as never);
    expect(reads).toBe(1);
    expect(JSON.parse(server.received[0]!.body)).toMatchObject({ metadata: { orderId: 'ord_1' } });
  });

  it('are read once: an amount getter cannot turn valid into invalid after the check', async () => {
    server = await loopback((_req, res) =>
      json(res, 200, { status: 'success', data: { ...refunded, amount: 100 } }),
    );
    let reads = 0;
    const params = {
      reference: 'order_1042',
      get amount(): number {
        return ++reads === 1 ? 100 : -1;
      },
    };
    await server.wallet().refunds.create(params);
    expect(reads).toBe(1);
    expect(JSON.parse(server.received[0]!.body)).toMatchObject({ amount: 100 });
  });

  it.each([
    ['a revoked Proxy', revoked],
    ['a Proxy whose ownKeys trap throws', throwingKeys],
  ])('as %s end as a ValidationError, nothing sent', async (_, make) => {
    server = await loopback((_req, res) => json(res, 200, { status: 'success', data: refunded }));
    const wallet = server.wallet();
    for (const params of [make(), { ...push, metadata: make() }]) {
      const error = await wallet.charges.dispatch(params as never).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ValidationError' });
      expect((error as Error).message).toMatch(/could not be read|plain/);
    }
    expect(server.received).toHaveLength(0);
  });
});

describe('request options', () => {
  it.each([
    ['a revoked Proxy', revoked],
    ['a Proxy whose ownKeys trap throws', throwingKeys],
  ])('as %s end as a ValidationError, nothing sent', async (_, make) => {
    server = await loopback((_req, res) => json(res, 200, { status: 'success', data: refunded }));
    const wallet = server.wallet();
    const error = await wallet.refunds
      .create({ reference: 'order_1042' }, make() as never)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError' });
    const waited = await wallet.charges
      .waitForOutcome('order_1042', make() as never)
      .catch((e: unknown) => e);
    expect(waited).toMatchObject({ name: 'ValidationError' });
    expect(server.received).toHaveLength(0);
  });

  it('are read once: an idempotencyKey getter sends the key it was checked with', async () => {
    server = await loopback((_req, res) => json(res, 200, { status: 'success', data: refunded }));
    let reads = 0;
    const options = {
      get idempotencyKey(): string {
        return ++reads === 1 ? 'refund-1' : 'bad key with spaces';
      },
    };
    const { response } = await server
      .wallet()
      .refunds.create({ reference: 'order_1042' }, options)
      .withResponse();
    expect(response.idempotencyKey).toBe('refund-1');
    expect(server.received[0]!.headers['x-idempotency-key']).toBe('refund-1');
    expect(reads).toBe(1);
  });
});

describe('client options', () => {
  it.each([
    ['a revoked Proxy', revoked],
    ['a Proxy whose ownKeys trap throws', throwingKeys],
  ])('as %s end as a ValidationError', (_, make) => {
    expect(() => new Wallet(make() as never)).toThrow(expect.objectContaining({ name: 'ValidationError' }));
    expect(() => new Wallet({ apiKey: TEST_KEY, defaultHeaders: make() as never })).toThrow(
      expect.objectContaining({ name: 'ValidationError' }),
    );
  });
});
