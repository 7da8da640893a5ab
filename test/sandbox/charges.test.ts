import { describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';

import { callSandbox, paidCharge, resolveAndDispatch } from './http-helpers.js';

const resolve = (
  sandbox: ReturnType<typeof createSandbox>,
  handle: string,
  reference = 'order_1',
  amount = 500_000,
) => callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', { body: { handle, amount, reference } });

describe('resolve-handle', () => {
  it('finds @ada and lists only her ACTIVE mandate, with a masked account number', async () => {
    const answer = await resolve(createSandbox(), '@ada');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: {
        customer: { handle: '@ada', name: 'Ada Lovelace', avatarUrl: expect.stringMatching(/^https:\/\//) },
        availableAuthChannels: [
          { id: 'wallet_push', name: expect.any(String), isRecommended: true },
          { id: 'wallet_qr', name: expect.any(String) },
        ],
        linkedBanks: [
          {
            bankId: 'bnk_ada_gtb',
            bankName: 'GTBank',
            bankCode: '058',
            accountNumberMasked: '******1234',
            mandateStatus: 'ACTIVE',
          },
        ],
      },
    });
  });

  it.each(['ada', '@ADA', '+2348000000001', '2348000000001', '08000000001', '+234 800 000 0001'])(
    'finds @ada by %s',
    async (handle) => {
      const answer = await resolve(createSandbox(), handle);
      expect(answer.status).toBe(200);
      expect(answer.body.data.customer.handle).toBe('@ada');
    },
  );

  it('answers 404 with the error envelope for a handle nobody has', async () => {
    const answer = await resolve(createSandbox(), '@nobody');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 'error', message: expect.stringContaining('@nobody') });
  });

  it('accepts the same order resolved twice, and refuses its reference for another amount with 409', async () => {
    const sandbox = createSandbox();
    expect((await resolve(sandbox, '@ada', 'order_1', 500_000)).status).toBe(200);
    expect((await resolve(sandbox, '@ada', 'order_1', 500_000)).status).toBe(200);
    const duplicate = await resolve(sandbox, '@ada', 'order_1', 700_000);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toMatch(/duplicate reference/i);
    expect(sandbox.charge('order_1')?.amount).toBe(500_000);
  });

  it('knows customers added by the merchant, and lists no bank without an ACTIVE mandate', async () => {
    const sandbox = createSandbox({
      customers: [
        {
          handle: 'chioma',
          phone: '+2348000000009',
          name: 'Chioma Eze',
          banks: [
            { bankId: 'b1', bankName: 'UBA', bankCode: '033', accountNumber: '1112223334' },
            {
              bankId: 'b2',
              bankName: 'FCMB',
              bankCode: '214',
              accountNumber: '9998887776',
              mandateStatus: 'PENDING',
            },
          ],
        },
      ],
    });
    const answer = await resolve(sandbox, '+2348000000009');
    expect(answer.body.data.customer.handle).toBe('@chioma');
    expect(answer.body.data.linkedBanks).toEqual([
      expect.objectContaining({ bankId: 'b1', accountNumberMasked: '******3334' }),
    ]);
  });
});

describe('dispatch', () => {
  it('sends a push: PENDING_AUTHORIZATION with an expiry and no QR code', async () => {
    const now = new Date('2026-01-01T10:00:00.000Z');
    const sandbox = createSandbox({ now: () => now, promptTtlMs: 300_000 });
    const answer = await resolveAndDispatch(sandbox, 'order_1', 500_000);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: {
        reference: 'order_1',
        status: 'PENDING_AUTHORIZATION',
        authChannel: 'wallet_push',
        expiresAt: '2026-01-01T10:05:00.000Z',
      },
    });
  });

  it('generates a QR code: PENDING_SCAN with a qrCodeUrl and an expiry', async () => {
    const answer = await resolveAndDispatch(createSandbox(), 'order_1', 500_000, 'wallet_qr');
    expect(answer.body.data).toEqual({
      reference: 'order_1',
      status: 'PENDING_SCAN',
      authChannel: 'wallet_qr',
      qrCodeUrl: expect.stringMatching(/^https:\/\/\S+$/),
      expiresAt: expect.any(String),
    });
  });

  it('answers 409 to a second dispatch of a paid reference', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    const again = await callSandbox(sandbox, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'order_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
    });
    expect(again.status).toBe(409);
    expect(again.body.status).toBe('error');
    expect(sandbox.debits).toHaveLength(1);
  });

  it('answers 404 for a reference that was never resolved', async () => {
    const answer = await callSandbox(createSandbox(), 'POST', '/v1/charges/dispatch', {
      body: { reference: 'order_unknown', bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
    });
    expect(answer.status).toBe(404);
  });

  it('answers 422 for a bank whose mandate is not ACTIVE', async () => {
    const sandbox = createSandbox();
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const answer = await callSandbox(sandbox, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'order_1', bankId: 'bnk_ada_access', authChannel: 'wallet_push' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/ACTIVE/);
  });
});

describe('verify and the customer controls', () => {
  it('reports a pending push, then SUCCESS with 2% fee, netAmount, settlement and paidAt after authorize', async () => {
    const now = new Date('2026-01-01T10:00:00.000Z');
    const sandbox = createSandbox({ now: () => now });
    await resolveAndDispatch(sandbox, 'order/1 ?#%..', 500_025);
    const path = `/v1/charges/verify/${encodeURIComponent('order/1 ?#%..')}`;
    const pending = await callSandbox(sandbox, 'GET', path);
    expect(pending.body).toEqual({
      status: 'success',
      data: expect.objectContaining({
        status: 'PENDING_AUTHORIZATION',
        fee: null,
        settlement: null,
        paidAt: null,
      }),
    });

    await sandbox.authorize('order/1 ?#%..');
    const paid = await callSandbox(sandbox, 'GET', path);
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({
      status: 'success',
      data: {
        reference: 'order/1 ?#%..',
        amount: 500_025,
        currency: 'NGN',
        // 2% of 500 025 is 10 000.5: half up to 10 001.
        fee: 10_001,
        netAmount: 490_024,
        status: 'SUCCESS',
        channel: 'wallet_push',
        customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Lovelace' },
        settlement: { status: 'SETTLED', settledAt: '2026-01-01T10:00:00.000Z' },
        paidAt: '2026-01-01T10:00:00.000Z',
      },
    });
    expect(sandbox.debits).toEqual([
      expect.objectContaining({ reference: 'order/1 ?#%..', amount: 500_025 }),
    ]);
  });

  it('caps the fee at 200 000 Kobo (₦2,000)', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'big', 50_000_000);
    const paid = await callSandbox(sandbox, 'GET', '/v1/charges/verify/big');
    expect(paid.body.data).toMatchObject({ fee: 200_000, netAmount: 49_800_000 });
  });

  it('reports FAILED after decline, and debits nothing', async () => {
    const sandbox = createSandbox();
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    await sandbox.decline('order_1');
    const answer = await callSandbox(sandbox, 'GET', '/v1/charges/verify/order_1');
    expect(answer.body.data).toMatchObject({ status: 'FAILED', fee: null, paidAt: null });
    expect(sandbox.debits).toEqual([]);
  });

  it('expires a prompt on request and once its expiresAt passes, and then accepts a new dispatch', async () => {
    let now = new Date('2026-01-01T10:00:00.000Z');
    const sandbox = createSandbox({ now: () => now, promptTtlMs: 60_000 });
    await resolveAndDispatch(sandbox, 'a', 100_000);
    await sandbox.expire('a');
    expect((await callSandbox(sandbox, 'GET', '/v1/charges/verify/a')).body.data.status).toBe('FAILED');

    await resolveAndDispatch(sandbox, 'b', 100_000);
    now = new Date('2026-01-01T10:01:00.000Z');
    expect((await callSandbox(sandbox, 'GET', '/v1/charges/verify/b')).body.data.status).toBe('FAILED');
    await expect(sandbox.authorize('b')).rejects.toMatchObject({ name: 'SandboxError', status: 409 });

    const again = await resolveAndDispatch(sandbox, 'b', 100_000);
    expect(again.body.data.status).toBe('PENDING_AUTHORIZATION');
    await sandbox.authorize('b');
    expect(sandbox.debits).toHaveLength(1);
  });

  it('answers 404 to verify of an unknown reference', async () => {
    const answer = await callSandbox(createSandbox(), 'GET', '/v1/charges/verify/nope');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 'error', message: expect.any(String) });
  });

  it('refuses to authorize twice, so a customer is debited once', async () => {
    const sandbox = createSandbox();
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const results = await Promise.allSettled([sandbox.authorize('order_1'), sandbox.authorize('order_1')]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(sandbox.debits).toHaveLength(1);
    await expect(sandbox.authorize('nope')).rejects.toMatchObject({ status: 404 });
  });

  it('gives snapshots a test can keep: later changes do not show through, and they cannot be edited', async () => {
    const sandbox = createSandbox();
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const before = sandbox.charges;
    await sandbox.authorize('order_1');
    expect(before[0]?.status).toBe('PENDING_AUTHORIZATION');
    expect(sandbox.charges[0]?.status).toBe('SUCCESS');
    expect(() => {
      (before[0] as { status: string }).status = 'SUCCESS';
    }).toThrow(TypeError);
  });

  it('forgets everything on reset but keeps its customers', async () => {
    const sandbox = createSandbox();
    await paidCharge(sandbox, 'order_1', 500_000);
    sandbox.reset();
    expect([sandbox.charges, sandbox.debits, sandbox.requests]).toEqual([[], [], []]);
    expect((await callSandbox(sandbox, 'GET', '/v1/charges/verify/order_1')).status).toBe(404);
    expect((await resolveAndDispatch(sandbox, 'order_1', 100_000)).status).toBe(200);
  });
});
