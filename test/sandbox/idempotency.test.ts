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

  it('forgets its saved answers on reset(): the same key acts again', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    const send = () =>
      callSandbox(sandbox, 'POST', '/v1/refunds', {
        body: { reference: 'order_1', amount: 100_000 },
        idempotencyKey: 'k1',
      });
    await send();
    sandbox.reset();
    await paidCharge(sandbox, 'order_1', 500_000);
    const again = await send();
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(sandbox.refunds).toHaveLength(1);
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

  it('answers a key reused for a different request with the original answer, and changes nothing', async () => {
    const lines: string[] = [];
    const sandbox = createSandbox({
      logger: { info: (l) => lines.push(`info ${l}`), warn: (l) => lines.push(`warn ${l}`) },
    });
    await paidCharge(sandbox, 'order_1', 500_000);
    const first = await callSandbox(sandbox, 'POST', '/v1/refunds', {
      body: { reference: 'order_1', amount: 100 },
      idempotencyKey: 'k',
    });
    const other = await callSandbox(sandbox, 'POST', '/v1/refunds', {
      body: { reference: 'order_1', amount: 200 },
      idempotencyKey: 'k',
    });
    expect(other.status).toBe(200);
    expect(other.body).toEqual(first.body);
    expect(other.body.data.amount).toBe(100);
    expect(other.headers.get('idempotent-replayed')).toBe('true');
    expect(sandbox.refunds.map((r) => r.amount)).toEqual([100]);
    expect(lines.at(-1)).toMatch(
      /^warn .* POST \/v1\/refunds 200 key=k replayed another request's answer \(key reused\)/,
    );
  });

  it('replays the original answer even to another endpoint: a dispatch key reused for a QR dispatch', async () => {
    const sandbox = createSandbox();
    await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '@ada', amount: 500_000, reference: 'order_1' },
    });
    const push = await callSandbox(sandbox, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'order_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
      idempotencyKey: 'dispatch:order_1',
    });
    const qr = await callSandbox(sandbox, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'order_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_qr' },
      idempotencyKey: 'dispatch:order_1',
    });
    expect(qr.body).toEqual(push.body);
    expect(qr.body.data.qrCodeUrl).toBeUndefined();
    expect(sandbox.charge('order_1')).toMatchObject({ channel: 'wallet_push', prompts: 1 });
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
