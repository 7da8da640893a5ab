import { describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';

import { callSandbox, paidCharge, resolveAndDispatch } from './http-helpers.js';

describe('idempotent replay', () => {
  it('returns the saved refund for a repeated key, and refunds once', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    const send = () =>
      callSandbox(sandbox, 'POST', '/v1/refunds', {
        body: { reference: 'order_1', amount: 100_000 },
        idempotencyKey: 'k1',
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(sandbox.refunds).toHaveLength(1);
    expect(sandbox.requests.filter((r) => r.idempotencyKey === 'k1').map((r) => r.replayed)).toEqual([
      false,
      true,
    ]);
  });

  it('replays a dispatch after the charge is paid instead of answering 409, and debits once', async () => {
    const sandbox = createSandbox();
    await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '@ada', amount: 500_000, reference: 'order_1' },
    });
    const dispatch = (key: string) =>
      callSandbox(sandbox, 'POST', '/v1/charges/dispatch', {
        body: { reference: 'order_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
        idempotencyKey: key,
      });
    const first = await dispatch('k-dispatch');
    await sandbox.authorize('order_1');
    const retry = await dispatch('k-dispatch');
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await dispatch('k-other')).status).toBe(409);
    expect(sandbox.charge('order_1')?.prompts).toBe(1);
    expect(sandbox.debits).toHaveLength(1);
  });

  it('treats the same body with its keys in another order as the same request', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    const a = await callSandbox(sandbox, 'POST', '/v1/refunds', {
      rawBody: '{"reference":"order_1","amount":100}',
      idempotencyKey: 'k',
    });
    const b = await callSandbox(sandbox, 'POST', '/v1/refunds', {
      rawBody: '{ "amount": 100, "reference": "order_1" }',
      idempotencyKey: 'k',
    });
    expect(b.body).toEqual(a.body);
    expect(sandbox.refunds).toHaveLength(1);
  });

  it('answers 422 to the same key with a different request, and changes nothing', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    await callSandbox(sandbox, 'POST', '/v1/refunds', {
      body: { reference: 'order_1', amount: 100 },
      idempotencyKey: 'k',
    });
    const other = await callSandbox(sandbox, 'POST', '/v1/refunds', {
      body: { reference: 'order_1', amount: 200 },
      idempotencyKey: 'k',
    });
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/X-Idempotency-Key/);
    expect(sandbox.refunds.map((r) => r.amount)).toEqual([100]);
  });

  it('replays a saved refusal too: an over-refund stays refused under its key', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    const send = () =>
      callSandbox(sandbox, 'POST', '/v1/refunds', {
        body: { reference: 'order_1', amount: 900_000 },
        idempotencyKey: 'k',
      });
    expect((await send()).status).toBe(422);
    const again = await send();
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not save a malformed request, so the merchant can fix it and send it with the same key', async () => {
    const sandbox = createSandbox();
    const broken = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '@ada', amount: '500000', reference: 'order_1' },
      idempotencyKey: 'k',
    });
    expect(broken.status).toBe(400);
    const fixed = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '@ada', amount: 500_000, reference: 'order_1' },
      idempotencyKey: 'k',
    });
    expect(fixed.status).toBe(200);
  });

  it('acts once on two concurrent requests with one key', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    const send = () =>
      callSandbox(sandbox, 'POST', '/v1/refunds', {
        body: { reference: 'order_1', amount: 100 },
        idempotencyKey: 'k',
      });
    const [a, b] = await Promise.all([send(), send()]);
    expect(a.body).toEqual(b.body);
    expect(sandbox.refunds).toHaveLength(1);
  });

  it('ignores the key on GET: verify always reads the current state', async () => {
    const sandbox = createSandbox();
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const before = await callSandbox(sandbox, 'GET', '/v1/charges/verify/order_1', { idempotencyKey: 'k' });
    await sandbox.authorize('order_1');
    const after = await callSandbox(sandbox, 'GET', '/v1/charges/verify/order_1', { idempotencyKey: 'k' });
    expect([before.body.data.status, after.body.data.status]).toEqual(['PENDING_AUTHORIZATION', 'SUCCESS']);
  });
});
