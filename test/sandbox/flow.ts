/**
 * One merchant flow, run through each way of serving the sandbox with the same assertions: what
 * a merchant observes (statuses, data, money, webhook) must not depend on how the sandbox is served.
 */
import { expect } from 'vitest';

import { ApiError } from '@wallet/node';
import type { Wallet } from '@wallet/node';
import type { Sandbox } from '@wallet/node/testing';

import { TEST_KEY } from './http-helpers.js';
import type { Receiver } from './receiver.js';

/** What one call gave: the status, and the data or the error message. */
export interface Outcome {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by path in tests; the assertions check its shape.
  data?: any;
  message?: string;
}

/** The four endpoints, however they are reached. */
export interface MerchantApi {
  resolveHandle(
    params: { handle: string; amount: number; reference: string },
    key?: string,
  ): Promise<Outcome>;
  dispatch(
    params: { reference: string; bankId: string; authChannel: 'wallet_push' | 'wallet_qr' },
    key?: string,
  ): Promise<Outcome>;
  verify(reference: string): Promise<Outcome>;
  refund(params: { reference: string; amount?: number }, key?: string): Promise<Outcome>;
}

async function settle(
  call: () => Promise<{ data: unknown; response: { status: number } }>,
): Promise<Outcome> {
  try {
    const { data, response } = await call();
    return { status: response.status, data };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
}

/** The SDK, over whatever dispatcher or URL it was given. */
export function sdkApi(wallet: Wallet): MerchantApi {
  const opts = (key?: string) => (key === undefined ? {} : { idempotencyKey: key });
  return {
    resolveHandle: (params, key) =>
      settle(() => wallet.charges.resolveHandle(params, opts(key)).withResponse()),
    dispatch: (params, key) => settle(() => wallet.charges.dispatch(params, opts(key)).withResponse()),
    verify: (reference) => settle(() => wallet.charges.verify(reference).withResponse()),
    refund: (params, key) => settle(() => wallet.refunds.create(params, opts(key)).withResponse()),
  };
}

/** Plain global `fetch`, as a merchant without the SDK would call the service. */
export function fetchApi(baseUrl: string): MerchantApi {
  const call = async (method: string, path: string, body?: unknown, key?: string): Promise<Outcome> => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${TEST_KEY}`,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key !== undefined) headers['x-idempotency-key'] = key;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const envelope = (await response.json()) as { status: string; data?: unknown; message?: string };
    return envelope.status === 'success'
      ? { status: response.status, data: envelope.data }
      : { status: response.status, message: envelope.message ?? '' };
  };
  return {
    resolveHandle: (params, key) => call('POST', '/v1/charges/resolve-handle', params, key),
    dispatch: (params, key) => call('POST', '/v1/charges/dispatch', params, key),
    verify: (reference) => call('GET', `/v1/charges/verify/${encodeURIComponent(reference)}`),
    refund: (params, key) => call('POST', '/v1/refunds', params, key),
  };
}

/** Resolve, dispatch, authorize, webhook, verify, refunds, replays: every observation asserted. */
export async function merchantFlow(api: MerchantApi, sandbox: Sandbox, receiver: Receiver): Promise<void> {
  const reference = 'order_1042';
  const resolved = await api.resolveHandle({ handle: '@ada', amount: 500_000, reference });
  expect(resolved.status).toBe(200);
  expect(resolved.data.customer.handle).toBe('@ada');
  expect(resolved.data.linkedBanks).toEqual([
    expect.objectContaining({
      bankId: 'bnk_ada_gtb',
      accountNumberMasked: '******1234',
      mandateStatus: 'ACTIVE',
    }),
  ]);

  const dispatch = {
    reference,
    bankId: resolved.data.linkedBanks[0].bankId,
    authChannel: 'wallet_push',
  } as const;
  const dispatched = await api.dispatch(dispatch, 'dispatch-order_1042');
  expect(dispatched.status).toBe(200);
  expect(dispatched.data).toMatchObject({
    reference,
    status: 'PENDING_AUTHORIZATION',
    authChannel: 'wallet_push',
  });

  const { webhook } = await sandbox.authorize(reference);
  expect(webhook?.delivered).toBe(true);
  expect(receiver.handled).toEqual([
    { event: 'charge.success', data: { reference, amount: 500_000, customer: { handle: '@ada' } } },
  ]);

  const verified = await api.verify(reference);
  expect(verified.status).toBe(200);
  expect(verified.data).toMatchObject({
    reference,
    amount: 500_000,
    fee: 10_000,
    netAmount: 490_000,
    status: 'SUCCESS',
    settlement: { status: 'SETTLED' },
  });

  const refunded = await api.refund({ reference, amount: 100_000 }, 'refund-order_1042-1');
  expect(refunded.status).toBe(200);
  expect(refunded.data).toMatchObject({ amount: 100_000, status: 'PROCESSED', currency: 'NGN' });

  const over = await api.refund({ reference, amount: 400_001 });
  expect(over.status).toBe(422);

  const replayedDispatch = await api.dispatch(dispatch, 'dispatch-order_1042');
  expect(replayedDispatch).toEqual(dispatched);
  const replayedRefund = await api.refund({ reference, amount: 100_000 }, 'refund-order_1042-1');
  expect(replayedRefund.data.refundReference).toBe(refunded.data.refundReference);
  expect((await api.dispatch(dispatch, 'dispatch-order_1042-again')).status).toBe(409);

  expect((await api.verify('order_unknown')).status).toBe(404);
  expect(sandbox.debits).toHaveLength(1);
  expect(sandbox.refunds.map((r) => r.amount)).toEqual([100_000]);
  expect(sandbox.charge(reference)?.prompts).toBe(1);
}
