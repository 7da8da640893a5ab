/**
 * Limits in Kobo: a call that would pass one is refused before anything is sent, saying which
 * limit and how much is left; an amount known not to have moved is given back, one whose outcome
 * is unknown stays counted; live keys only with allowLive.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';

import { memorySpendLedger, walletTools } from '../../packages/agent-toolkit/src/index.js';
import { LIVE_KEY, TEST_KEY, rig, type Rig } from './setup.js';

let r: Rig;
afterEach(() => r.close());

const moneyPosts = (x: Rig) =>
  x.sent().filter((line) => line === 'POST /v1/refunds' || line === 'POST /v1/charges/dispatch');

describe('per-call limits', () => {
  it('refuses a charge over perCharge before anything is sent, naming the limit', async () => {
    r = rig();
    const { dispatch_charge } = r.tools({ allow: ['dispatch_charge'], limits: { perCharge: 1_000_000 } });
    const result = await dispatch_charge!.execute({
      handle: '@ada',
      amount: 1_000_001,
      reference: 'big',
      authChannel: 'wallet_push',
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Refused by limit 'perCharge': nothing was sent");
    expect(result.text).toContain('₦10,000.00 (1000000 Kobo)');
    expect(result.data).toMatchObject({ refusedBy: 'perCharge', left: { kobo: 1_000_000 } });
    expect(r.sent()).toEqual([]);
  });

  it('refuses an explicit refund over perRefund without even a verify; a full refund counts what was paid', async () => {
    r = rig();
    await r.paid('p1', 300_000);
    const before = r.sent().length;
    const { refund_charge } = r.tools({ allow: ['refund_charge'], limits: { perRefund: 200_000 } });
    const explicit = await refund_charge!.execute({ reference: 'p1', amount: 200_001 });
    expect(explicit.data).toMatchObject({ refusedBy: 'perRefund' });
    expect(r.sent().length).toBe(before);
    const full = await refund_charge!.execute({ reference: 'p1' });
    expect(full.data).toMatchObject({ refusedBy: 'perRefund' });
    expect(moneyPosts(r)).toEqual(['POST /v1/charges/dispatch']);
  });
});

describe('daily limits', () => {
  it('counts charges through the day and refuses the one that would pass, saying what is left', async () => {
    r = rig();
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    const { dispatch_charge } = r.tools({
      allow: ['dispatch_charge'],
      limits: { dailyCharges: 500_000 },
      ledger,
    });
    const charge = (reference: string, amount: number) =>
      dispatch_charge!.execute({ handle: '@ada', amount, reference, authChannel: 'wallet_push' });
    expect((await charge('d1', 300_000)).isError).toBe(false);
    const over = await charge('d2', 250_000);
    expect(over.text).toContain("Refused by limit 'dailyCharges'");
    expect(over.text).toContain('₦2,000.00 (200000 Kobo) is left today');
    expect(over.data).toMatchObject({ refusedBy: 'dailyCharges', left: { kobo: 200_000 } });
    expect((await charge('d3', 200_000)).isError).toBe(false);
    expect(await ledger.total('charges')).toBe(500_000);
    // The next day in Lagos (UTC+1) starts at 23:00 UTC.
    r.clock.now = Date.parse('2026-11-24T23:00:00Z');
    expect((await charge('d4', 500_000)).isError).toBe(false);
    expect(moneyPosts(r)).toHaveLength(3);
  });

  it('refuses refunds over dailyRefunds at preview and at confirmation, when others used the day up meanwhile', async () => {
    r = rig();
    await r.paid('q1', 400_000);
    await r.paid('q2', 400_000);
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    const a = r.tools({ allow: ['refund_charge'], limits: { dailyRefunds: 500_000 }, ledger });
    const b = r.tools({ allow: ['refund_charge'], limits: { dailyRefunds: 500_000 }, ledger });
    const p1 = await a.refund_charge!.execute({ reference: 'q1' });
    const p2 = await b.refund_charge!.execute({ reference: 'q2' });
    expect(p1.isError || p2.isError).toBe(false);
    const d1 = await a.refund_charge!.execute({
      reference: 'q1',
      confirmationToken: p1.data!['confirmationToken'],
    });
    expect(d1.isError).toBe(false);
    const d2 = await b.refund_charge!.execute({
      reference: 'q2',
      confirmationToken: p2.data!['confirmationToken'],
    });
    expect(d2.data).toMatchObject({ refusedBy: 'dailyRefunds', left: { kobo: 100_000 } });
    const again = await b.refund_charge!.execute({ reference: 'q2' });
    expect(again.data).toMatchObject({ refusedBy: 'dailyRefunds' });
    expect(moneyPosts(r).filter((l) => l === 'POST /v1/refunds')).toHaveLength(1);
    expect(await ledger.total('refunds')).toBe(400_000);
  });

  it('gives back an amount known not to have moved, keeps one whose outcome is unknown', async () => {
    r = rig();
    await r.paid('k1', 100_000);
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    const { refund_charge } = r.tools({
      allow: ['refund_charge'],
      confirm: false,
      limits: { dailyRefunds: 1_000_000 },
      ledger,
    });
    // 422 from the service (more than is left): known not to have acted.
    await r.wallet.refunds.create({ reference: 'k1', amount: 90_000 });
    const refusedByService = await refund_charge!.execute({ reference: 'k1', amount: 50_000 });
    expect(refusedByService.data).toMatchObject({
      error: { name: 'UnprocessableEntityError', outcomeUnknown: false },
    });
    expect(await ledger.total('refunds')).toBe(0);
  });

  it('keeps an unknown outcome counted, and lets the same token repeat the call without moving money twice', async () => {
    r = rig();
    await r.paid('u1', 100_000);
    await r.paid('u2', 100_000);
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    let drop = true;
    // The connection drops after the sandbox acted: the SDK cannot know whether the refund exists.
    const flaky = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: r.sandbox.baseUrl,
      maxRetries: 0,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const response = await r.sandbox.fetch(request);
        if (drop && request.method === 'POST')
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          });
        return response;
      },
    });
    const tools = walletTools({
      wallet: flaky,
      allow: ['refund_charge'],
      limits: { dailyRefunds: 100_000 },
      ledger,
      now: () => r.clock.now,
    });
    const refund = tools.find((t) => t.name === 'refund_charge')!;
    const preview = await refund.execute({ reference: 'u1', amount: 60_000 });
    const args = { reference: 'u1', amount: 60_000, confirmationToken: preview.data!['confirmationToken'] };
    const lost = await refund.execute(args);
    expect(lost.isError).toBe(true);
    expect(lost.text).toContain('OUTCOME UNKNOWN');
    expect(lost.text).toContain('get_charge');
    expect(lost.data).toMatchObject({ error: { outcomeUnknown: true } });
    expect(await ledger.total('refunds')).toBe(60_000);
    // Another refund cannot use the unknown amount's room.
    const other = await refund.execute({ reference: 'u2', amount: 50_000 });
    expect(other.data).toMatchObject({ refusedBy: 'dailyRefunds', left: { kobo: 40_000 } });
    drop = false;
    const repeat = await refund.execute(args);
    expect(repeat.isError).toBe(false);
    expect(await ledger.total('refunds')).toBe(60_000);
    const posts = r.sandbox.requests.filter((q) => q.path === '/v1/refunds');
    expect(posts.map((q) => [q.idempotencyKey, q.replayed])).toEqual([
      [args.confirmationToken, false],
      [args.confirmationToken, true],
    ]);
    expect(r.sandbox.refunds.map((x) => x.amount)).toEqual([60_000]);
    // And once known, a third try moves nothing: what is left no longer covers it.
    expect((await refund.execute(args)).isError).toBe(true);
    expect(r.sandbox.refunds.map((x) => x.amount)).toEqual([60_000]);
  });
});

describe('the amount a charge counts', () => {
  it('is the one its resolve registers: a reference held for another amount is refused, nothing dispatched or counted', async () => {
    r = rig();
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    const { dispatch_charge } = r.tools({
      allow: ['dispatch_charge'],
      ledger,
      limits: { perCharge: 100_000 },
    });
    // The shop registered ₦5,000 and the customer declined; the agent asks again for 5000 Kobo (₦50).
    await r.wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'held_2' });
    await r.wallet.charges.dispatch({
      reference: 'held_2',
      bankId: 'bnk_ada_gtb',
      authChannel: 'wallet_push',
    });
    await r.sandbox.decline('held_2');
    const before = moneyPosts(r).length;
    const again = await dispatch_charge!.execute({
      handle: '@ada',
      amount: 5_000,
      reference: 'held_2',
      authChannel: 'wallet_push',
    });
    expect(again.isError).toBe(true);
    expect(again.data).toMatchObject({ error: { name: 'ConflictError', outcomeUnknown: false } });
    expect(moneyPosts(r)).toHaveLength(before);
    expect(r.sandbox.charge('held_2')?.amount).toBe(500_000);
    expect(await ledger.total('charges')).toBe(0);
  });
});

describe('the same call twice at once', () => {
  it('sends a refund or a prompt once and counts it once: the second is refused while the first is on its way', async () => {
    r = rig();
    await r.paid('twin_1', 100_000);
    // Answers of money calls come late, so the second call starts while the first is on its way.
    const slow = r.tampered(async (q, a) => {
      if (q.method === 'POST') await new Promise((done) => setTimeout(done, 50));
      return a;
    });
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    const list = walletTools({
      wallet: slow,
      ledger,
      now: () => r.clock.now,
      allow: ['refund_charge', 'dispatch_charge'],
      confirm: false,
      limits: { dailyRefunds: 100_000, dailyCharges: 100_000 },
    });
    const tool = (name: string) => list.find((t) => t.name === name)!;
    const refund = { reference: 'twin_1', amount: 30_000 };
    const refunds = await Promise.all([
      tool('refund_charge').execute(refund),
      tool('refund_charge').execute(refund),
    ]);
    expect(refunds.map((x) => x.isError).sort()).toEqual([false, true]);
    const second = refunds.find((x) => x.isError)!;
    expect(second.text).toContain('Refused: nothing was sent');
    expect(second.data).toMatchObject({ refusedBy: 'in_flight' });
    expect(r.sandbox.refunds.map((x) => x.amount)).toEqual([30_000]);
    expect(await ledger.total('refunds')).toBe(30_000);
    const charge = { handle: '@ada', amount: 40_000, reference: 'twin_2', authChannel: 'wallet_push' };
    const charges = await Promise.all([
      tool('dispatch_charge').execute(charge),
      tool('dispatch_charge').execute(charge),
    ]);
    expect(charges.map((x) => x.isError).sort()).toEqual([false, true]);
    expect(r.sent().filter((l) => l === 'POST /v1/charges/dispatch')).toHaveLength(2); // r.paid's and one
    expect(await ledger.total('charges')).toBe(40_000);
    // Once answered, the same call again is a new operation, as it always was.
    expect((await tool('refund_charge').execute(refund)).isError).toBe(false);
    expect(r.sandbox.refunds.map((x) => x.amount)).toEqual([30_000, 30_000]);
  });
});

describe('a call journaled but never sent', () => {
  it('is not said to be on its way: a ledger step that landed after its timeout blocks its twin until the cut-off, then is sent once', async () => {
    r = rig();
    await r.paid('late_1', 100_000);
    const memory = memorySpendLedger({ now: () => r.clock.now });
    let late = true;
    // Redis queues a command while it reconnects: the step lands after the tool gave up on it.
    const ledger = {
      ...memory,
      begin: async (request: Parameters<typeof memory.begin>[0]) => {
        const answer = await memory.begin(request);
        if (late) {
          late = false;
          throw new Error("The spend ledger's Redis did not answer EVAL within 2000 ms.");
        }
        return answer;
      },
    };
    const { refund_charge } = r.tools({ allow: ['refund_charge'], ledger, confirm: false });
    const refund = { reference: 'late_1', amount: 30_000 };
    const first = await refund_charge!.execute(refund);
    expect(first.text).toContain('No money was moved');
    const twin = await refund_charge!.execute(refund);
    expect(twin.data).toMatchObject({ refusedBy: 'in_flight' });
    expect(twin.text).not.toMatch(/already on its way|sent at/);
    expect(r.sandbox.refunds).toEqual([]);
    r.clock.now += 5 * 60_000;
    expect((await refund_charge!.execute(refund)).isError).toBe(false);
    expect(r.sandbox.refunds.map((x) => x.amount)).toEqual([30_000]);
    expect(await memory.total('refunds')).toBe(30_000);
  });
});

describe('live keys', () => {
  it('are refused without allowLive, before anything is sent', () => {
    r = rig();
    const live = new Wallet({
      apiKey: LIVE_KEY,
      baseUrl: r.sandbox.baseUrl,
      dispatcher: r.sandbox.dispatcher,
    });
    const ledger = memorySpendLedger();
    expect(() => walletTools({ wallet: live, ledger, allow: ['refund_charge'] })).toThrow(/allowLive/);
    const tools = walletTools({
      wallet: live,
      ledger,
      allowLive: true,
      allow: ['dispatch_charge', 'refund_charge'],
    });
    // With the opt-in, both money tools confirm by default.
    for (const tool of tools.filter((t) => !t.annotations.readOnlyHint)) {
      expect(tool.inputSchema['properties']).toHaveProperty('confirmationToken');
    }
    expect(r.sent()).toEqual([]);
  });
});
