import { describe, expect, it } from 'vitest';

import { ValidationError, Wallet } from '@wallet/node';
import type { SandboxSeedCharge } from '@wallet/node/testing';

import { callHttp, callSandbox } from './http-helpers.js';
import { trackSandboxes } from './tracked.js';

const track = trackSandboxes();

const MIX: SandboxSeedCharge[] = [
  { reference: 'paid', amount: 500_000, status: 'SUCCESS' },
  { reference: 'bad_fee', amount: 500_000, status: 'SUCCESS', fee: 1, netAmount: 499_999 },
  { reference: 'refunded', amount: 250_000, status: 'SUCCESS', refunded: 100_000 },
  { reference: 'all_back', amount: 80_000, status: 'SUCCESS', refunded: true, handle: '@tunde' },
  { reference: 'waiting', amount: 120_000, status: 'PENDING_AUTHORIZATION' },
  { reference: 'declined', amount: 90_000, status: 'FAILED' },
  { reference: 'ran_out', amount: 70_000, status: 'EXPIRED' },
];

describe('sandbox.seed()', () => {
  it('puts charges in every state, and verify tells each as the service would', async () => {
    const sandbox = track();
    expect(sandbox.seed(MIX)).toEqual({ seeded: 7, charges: 7 });
    const wallet = new Wallet({
      apiKey: 'sk_test_x',
      baseUrl: sandbox.baseUrl,
      dispatcher: sandbox.dispatcher,
    });
    const seen = await Promise.all(MIX.map((row) => wallet.charges.verify(row.reference)));
    expect(seen.map((t) => [t.reference, t.status, t.fee, t.netAmount])).toEqual([
      ['paid', 'SUCCESS', 10_000, 490_000],
      ['bad_fee', 'SUCCESS', 1, 499_999],
      ['refunded', 'SUCCESS', 5_000, 245_000],
      ['all_back', 'SUCCESS', 1_600, 78_400],
      ['waiting', 'PENDING_AUTHORIZATION', null, null],
      ['declined', 'FAILED', null, null],
      ['ran_out', 'FAILED', null, null],
    ]);
    expect(seen[0]?.settlement?.status).toBe('SETTLED');
    expect(sandbox.charge('all_back')).toMatchObject({
      refundedAmount: 80_000,
      customer: { handle: '@tunde' },
    });
    expect(sandbox.debits.map((d) => d.reference)).toEqual(['paid', 'bad_fee', 'refunded', 'all_back']);
    expect(sandbox.refunds.map((r) => [r.reference, r.amount])).toEqual([
      ['refunded', 100_000],
      ['all_back', 80_000],
    ]);
    // What is left to refund is what a refund may take; a seeded pending charge waits for the customer.
    await expect(wallet.refunds.create({ reference: 'refunded', amount: 150_001 })).rejects.toMatchObject({
      status: 422,
    });
    await expect(wallet.refunds.create({ reference: 'all_back' })).rejects.toMatchObject({ status: 422 });
    await sandbox.authorize('waiting');
    expect(sandbox.charge('waiting')?.status).toBe('SUCCESS');
  });

  it('refuses the whole seed, naming each bad row, and keeps nothing', () => {
    const sandbox = track();
    sandbox.seed([{ reference: 'held', amount: 1, status: 'FAILED' }]);
    const bad = [
      { reference: 'ok', amount: 100, status: 'SUCCESS' },
      { reference: 'held', amount: 100, status: 'SUCCESS' },
      { reference: 'twice', amount: 100, status: 'FAILED' },
      { reference: 'twice', amount: -5, status: 'PAID' },
      { reference: 'fee_on_failed', amount: 100, status: 'FAILED', fee: 2 },
      { reference: 'who', amount: 100, status: 'SUCCESS', handle: '@nobody', refunded: 101 },
    ];
    let caught: unknown;
    try {
      sandbox.seed(bad as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).issues.map((issue) => issue.path)).toEqual([
      '1.reference',
      '3.reference',
      '3.amount',
      '3.status',
      '4.fee',
      '5.handle',
      '5.refunded',
    ]);
    expect(sandbox.charges.map((c) => c.reference)).toEqual(['held']);
    expect(() => sandbox.seed('nope' as never)).toThrow(ValidationError);
  });

  it('seeds 100,000 charges in one call and answers verify on any of them', async () => {
    const sandbox = track();
    const rows: SandboxSeedCharge[] = Array.from({ length: 100_000 }, (_, i) => ({
      reference: `ref_${i}`,
      amount: 1_000 + i,
      status: i % 3 === 0 ? 'SUCCESS' : i % 3 === 1 ? 'PENDING_AUTHORIZATION' : 'FAILED',
    }));
    expect(sandbox.seed(rows)).toEqual({ seeded: 100_000, charges: 100_000 });
    const answer = await callSandbox(sandbox, 'GET', '/v1/charges/verify/ref_99999');
    expect(answer.body.data).toMatchObject({ amount: 100_999, status: 'SUCCESS' });
  });
});

describe('POST /_sandbox/seed', () => {
  it('takes JSON lines or a JSON array, with no key, and says how many it seeded', async () => {
    const lines: string[] = [];
    const sandbox = track({ logger: { info: (l) => lines.push(l), warn: (l) => lines.push(l) } });
    const { url } = await sandbox.listen();
    const jsonLines = `${JSON.stringify(MIX[0])}\n\n${JSON.stringify(MIX[4])}\n`;
    const first = await fetch(`${url}/_sandbox/seed`, { method: 'POST', body: jsonLines });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ data: { seeded: 2, charges: 2 } });
    const second = await callHttp(url, 'POST', '/_sandbox/seed', { body: [MIX[5]], apiKey: null });
    expect(second.body).toMatchObject({ status: 'success', data: { seeded: 1, charges: 3 } });
    expect(sandbox.charges.map((c) => c.status)).toEqual(['SUCCESS', 'PENDING_AUTHORIZATION', 'FAILED']);
    expect(lines.filter((l) => / sandbox seeded /.test(l))).toHaveLength(2);
  });

  it('answers 400 naming the bad line or row, and seeds nothing', async () => {
    const sandbox = track();
    const { url } = await sandbox.listen();
    const broken = await fetch(`${url}/_sandbox/seed`, {
      method: 'POST',
      body: `${JSON.stringify(MIX[0])}\n{oops\n`,
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { message: string }).message).toMatch(/Line 2 /);
    const bad = await callHttp(url, 'POST', '/_sandbox/seed', {
      body: [{ reference: 'x', amount: 0, status: 'SUCCESS' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/0\.amount: must be a positive whole number of Kobo/);
    expect(sandbox.charges).toHaveLength(0);
  });
});
