/**
 * What every spend ledger must do, run against each store (memory and SQLite in the unit suite,
 * Redis in the system stage): one atomic step that finds a repeat, refuses a spent token, counts
 * against the limit and journals; `failed` gives back once; the day in the merchant's time zone.
 */
import { expect, it } from 'vitest';

import type { BeginRequest, SpendLedger } from '../../packages/agent-toolkit/src/index.js';

/** Two ledgers on one store (two processes' view), on the test's clock. */
export type Pair = (clock: { now: number }, timeZone?: string) => [SpendLedger, SpendLedger];

let n = 0;
export function request(amount: number, extra: Partial<BeginRequest> = {}): BeginRequest {
  n += 1;
  return {
    key: `k${n}`,
    tool: 'refund_charge',
    reference: 'ref_1',
    kind: 'refunds',
    amount,
    call: `call${n}`,
    limit: 300_000,
    ...extra,
  };
}

export function ledgerContract(pair: Pair): void {
  it('never lets concurrent spending from two ledgers on one store pass the daily limit', async () => {
    const [a, b] = pair({ now: Date.parse('2026-11-24T12:00:00Z') });
    const amounts = Array.from({ length: 120 }, (_, i) => 1_000 + ((i * 7919) % 9_000));
    const results = await Promise.all(amounts.map((amount, i) => (i % 2 ? a : b).begin(request(amount))));
    const accepted = amounts.filter((_, i) => results[i]!.state === 'begun').reduce((s, x) => s + x, 0);
    expect(accepted).toBeLessThanOrEqual(300_000);
    expect(accepted).toBeGreaterThan(290_000);
    expect(await a.total('refunds')).toBe(accepted);
    expect(await b.total('refunds')).toBe(accepted);
  });

  it('refuses refunds counted past what their charge paid, across ledgers, failed ones not counted', async () => {
    const [a, b] = pair({ now: Date.parse('2026-11-24T12:00:00Z') });
    const reference = `paid_${n}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).begin(request(30_000, { reference, paid: 100_000 })),
      ),
    );
    const begun = answers.filter((x) => x.state === 'begun');
    expect(begun).toHaveLength(3);
    expect(answers.filter((x) => x.state === 'over_paid')).toContainEqual({
      state: 'over_paid',
      counted: 90_000,
    });
    if (begun[0]?.state !== 'begun') throw new Error('not begun');
    await a.finish(begun[0].entry.key, 'failed');
    expect(await b.begin(request(30_000, { reference, paid: 100_000 }))).toMatchObject({ state: 'begun' });
    expect(await a.begin(request(20_000, { reference, paid: 100_000 }))).toEqual({
      state: 'over_paid',
      counted: 90_000,
    });
  });

  it('finds a call in doubt by its arguments and answers its key, counted once', async () => {
    const [a, b] = pair({ now: Date.parse('2026-11-24T12:00:00Z') });
    const first = await a.begin(request(5_000, { call: 'same', key: 'first', reference: 'doubt_1' }));
    expect(first).toMatchObject({ state: 'begun', entry: { key: 'first', state: 'sent' } });
    // The same arguments while the first is still in flight: refused, or a second key could act twice.
    const twin = await b.begin(request(5_000, { call: 'same', key: 'twin', reference: 'doubt_1' }));
    expect(twin).toMatchObject({ state: 'in_flight', entry: { key: 'first', state: 'sent' } });
    // The same token while its operation is in flight (the token is the key): a repeat.
    const token = { id: 'first', ttlMs: 60_000 };
    expect(await b.begin(request(5_000, { key: 'first', token, reference: 'doubt_1' }))).toMatchObject({
      state: 'repeat',
      entry: { key: 'first' },
    });
    await a.finish('first', 'unknown');
    const again = await b.begin(request(5_000, { call: 'same', key: 'second', reference: 'doubt_1' }));
    expect(again).toMatchObject({
      state: 'repeat',
      entry: { key: 'first', amount: 5_000, state: 'unknown' },
    });
    expect(await a.total('refunds')).toBe(5_000);
    await b.finish('first', 'done');
    // Known now: the same arguments again are a new operation.
    expect(await a.begin(request(5_000, { call: 'same', key: 'third', reference: 'doubt_1' }))).toMatchObject(
      {
        state: 'begun',
      },
    );
    expect((await b.journal('doubt_1')).map((e) => [e.key, e.state, e.amount])).toEqual([
      ['first', 'done', 5_000],
      ['third', 'sent', 5_000],
    ]);
  });

  it('refuses the same call in flight, its token left unspent, and repeats it once cut off', async () => {
    const clock = { now: Date.parse('2026-11-24T12:00:00Z') };
    const [a, b] = pair(clock);
    await a.begin(request(5_000, { call: 'flying', key: 'fly_1', reference: 'fly' }));
    const token = { id: `wct_fly_${n}`, ttlMs: 3_600_000 };
    const twin = request(5_000, { call: 'flying', key: token.id, token, reference: 'fly' });
    expect(await b.begin(twin)).toMatchObject({ state: 'in_flight', entry: { key: 'fly_1' } });
    await a.finish('fly_1', 'done');
    expect(await b.begin(twin)).toMatchObject({ state: 'begun', entry: { key: token.id } });
    // One whose process died on the way: past the cut-off its answer cannot come, so its key is reused.
    await a.begin(request(7_000, { call: 'cut', key: 'cut_1', reference: 'fly' }));
    clock.now += 5 * 60_000;
    const late = await b.begin(request(7_000, { call: 'cut', key: 'cut_2', reference: 'fly' }));
    expect(late).toMatchObject({ state: 'repeat', entry: { key: 'cut_1' } });
    expect(await a.total('refunds')).toBe(17_000);
  });

  it("answers a token's own operation before an older one in doubt, then the oldest", async () => {
    const [a, b] = pair({ now: Date.parse('2026-11-24T12:00:00Z') });
    for (const key of ['old_1', 'old_2']) {
      await a.begin(request(1_000, { call: 'many', key, reference: 'order_many' }));
      await a.finish(key, 'unknown');
    }
    const token = { id: 'own', ttlMs: 60_000 };
    await a.begin(request(1_000, { call: 'own_call', key: 'own', token, reference: 'order_own' }));
    const mine = await b.begin(request(1_000, { call: 'many', key: 'own', token, reference: 'order_own' }));
    expect(mine).toMatchObject({ state: 'repeat', entry: { key: 'own', reference: 'order_own' } });
    const other = await b.begin(request(1_000, { call: 'many', key: 'new', reference: 'order_many' }));
    expect(other).toMatchObject({ state: 'repeat', entry: { key: 'old_1' } });
  });

  it('spends a token only with its operation, once across ledgers', async () => {
    const [a, b] = pair({ now: Date.parse('2026-11-24T12:00:00Z') });
    const token = { id: `wct_${n}`, ttlMs: 60_000 };
    // Over the limit: nothing journaled, the token still good.
    expect(await a.begin(request(400_000, { token }))).toMatchObject({ state: 'over' });
    const answers = await Promise.all([a.begin(request(1, { token })), b.begin(request(1, { token }))]);
    expect(answers.map((x) => x.state).sort()).toEqual(['begun', 'token_used']);
  });

  it('spends a token that confirms a repeat: once the repeat is known, the token moves nothing', async () => {
    const [a, b] = pair({ now: Date.parse('2026-11-24T12:00:00Z') });
    await a.begin(request(5_000, { call: 'again', key: 'orig', reference: 'rep_1' }));
    await a.finish('orig', 'unknown');
    const token = { id: `wct_rep_${n}`, ttlMs: 60_000 };
    const repeat = await b.begin(request(5_000, { call: 'again', key: token.id, token, reference: 'rep_1' }));
    expect(repeat).toMatchObject({ state: 'repeat', entry: { key: 'orig' } });
    await b.finish('orig', 'done');
    expect(await a.begin(request(5_000, { call: 'again', key: token.id, token }))).toEqual({
      state: 'token_used',
    });
  });

  it('refuses a token whose operation is journaled, even once its spent mark expired (a host call id lives longer than its mark)', async () => {
    const clock = { now: Date.parse('2026-11-24T12:00:00Z') };
    const [a, b] = pair(clock);
    const token = { id: `wai_old_${n}`, ttlMs: 60_000 };
    const first = request(5_000, { call: 'once', key: token.id, token, reference: 'old_1' });
    expect(await a.begin(first)).toMatchObject({ state: 'begun' });
    await a.finish(token.id, 'done');
    clock.now += 120_000;
    // Journaled again under the same key, it would be sent again: a replay the toolkit would count
    // and tell as a new refund, or a second refund where the service forgot the key.
    expect(await b.begin({ ...first })).toEqual({ state: 'token_used' });
    for (const ledger of [a, b]) {
      const journal = await ledger.journal('old_1');
      expect(journal.map((entry) => [entry.key, entry.state])).toEqual([[token.id, 'done']]);
    }
    expect(await a.total('refunds')).toBe(5_000);
  });

  it('gives a failed amount back once, on the day it was counted, in the time zone', async () => {
    const clock = { now: Date.parse('2026-11-24T22:30:00Z') }; // 23:30 in Lagos
    const [a, b] = pair(clock);
    const late = await a.begin(request(400, { kind: 'charges', limit: 1_000, tool: 'dispatch_charge' }));
    expect(late).toMatchObject({ state: 'begun', entry: { day: '2026-11-24' }, total: 400 });
    await b.begin(request(300, { kind: 'charges', limit: 1_000 }));
    clock.now = Date.parse('2026-11-24T23:30:00Z'); // 00:30 the next day in Lagos
    const next = await b.begin(request(900, { kind: 'charges', limit: 1_000, tool: 'dispatch_charge' }));
    expect(next).toMatchObject({ state: 'begun', entry: { day: '2026-11-25' }, total: 900 });
    if (late.state !== 'begun') throw new Error('not begun');
    await Promise.all([a.finish(late.entry.key, 'failed'), b.finish(late.entry.key, 'failed')]);
    expect(await a.total('charges', '2026-11-24')).toBe(300);
    expect(await b.total('charges')).toBe(900);
    expect(await a.begin(request(101, { kind: 'charges', limit: 1_000 }))).toMatchObject({
      state: 'over',
      total: 900,
    });
  });
}
