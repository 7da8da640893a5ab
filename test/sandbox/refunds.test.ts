import { describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';

import { callSandbox, paidCharge, resolveAndDispatch } from './http-helpers.js';

const refund = (sandbox: ReturnType<typeof createSandbox>, body: Record<string, unknown>) =>
  callSandbox(sandbox, 'POST', '/v1/refunds', { body });

describe('refunds', () => {
  it('refunds part, then the rest when no amount is given, then refuses a third with 422', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);

    const partial = await refund(sandbox, {
      reference: 'order_1',
      amount: 100_000,
      reason: 'one item returned',
    });
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: {
        refundReference: expect.stringMatching(/^rfd_/),
        amount: 100_000,
        currency: 'NGN',
        status: 'PROCESSED',
        refundedAt: expect.any(String),
      },
    });

    const rest = await refund(sandbox, { reference: 'order_1' });
    expect(rest.body.data.amount).toBe(400_000);
    expect(rest.body.data.refundReference).not.toBe(partial.body.data.refundReference);

    const more = await refund(sandbox, { reference: 'order_1', amount: 1 });
    expect(more.status).toBe(422);
    expect(sandbox.refunds.map((r) => r.amount)).toEqual([100_000, 400_000]);
    expect(sandbox.refunds[0]?.reason).toBe('one item returned');
  });

  it('refunds the whole amount when no amount is given', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 250_000);
    const full = await refund(sandbox, { reference: 'order_1' });
    expect(full.body.data.amount).toBe(250_000);
  });

  it('answers 422 when the amount exceeds what is left, and refunds nothing', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    await refund(sandbox, { reference: 'order_1', amount: 300_000 });
    const over = await refund(sandbox, { reference: 'order_1', amount: 200_001 });
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ status: 'error', message: expect.stringContaining('200000') });
    expect(sandbox.refunds).toHaveLength(1);
  });

  it('answers 409 for a charge that is not SUCCESS: pending or failed', async () => {
    const sandbox = createSandbox();
    await resolveAndDispatch(sandbox, 'pending', 500_000);
    await resolveAndDispatch(sandbox, 'failed', 500_000);
    await sandbox.decline('failed');
    for (const reference of ['pending', 'failed']) {
      const answer = await refund(sandbox, { reference });
      expect(answer.status).toBe(409);
      expect(answer.body.status).toBe('error');
    }
    expect(sandbox.refunds).toEqual([]);
  });

  it('answers 404 for an unknown reference', async () => {
    expect((await refund(createSandbox(), { reference: 'nope' })).status).toBe(404);
  });

  it.each([0, -1, 1.5, '100', null])(
    'answers 400 to amount %j, which is not a positive whole Kobo',
    async (amount) => {
      const sandbox = createSandbox();
      await paidCharge(sandbox, 'order_1', 500_000);
      const answer = await refund(sandbox, { reference: 'order_1', amount });
      expect(answer.status).toBe(400);
      expect(sandbox.refunds).toEqual([]);
    },
  );
});
