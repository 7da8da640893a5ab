/**
 * Money counted by what the service may have done: an amount stays counted on every doubt (a lost
 * answer, a 5xx, an answer that does not match its request) until the service proves otherwise;
 * a repeat sends the journaled key, so the sandbox acts once; a refund always carries an amount
 * the toolkit computed; get_charge shows the journal; a token is spent only with its operation.
 */
import { afterEach, describe, expect, it } from 'vitest';

import {
  memorySpendLedger,
  walletTools,
  type SpendLedger,
  type WalletTool,
  type WalletToolsOptions,
} from '../../packages/agent-toolkit/src/index.js';
import { lost, rewritten, rig, type Rig, type Tamper } from './setup.js';

let r: Rig;
afterEach(() => r.close());

function toolsOn(
  tamper: Tamper,
  options: Omit<WalletToolsOptions, 'wallet'> = {},
): { tools: Record<string, WalletTool>; ledger: SpendLedger } {
  const ledger = options.ledger ?? memorySpendLedger({ now: () => r.clock.now });
  const list = walletTools({ wallet: r.tampered(tamper), now: () => r.clock.now, ledger, ...options });
  return { tools: Object.fromEntries(list.map((t) => [t.name, t])), ledger };
}

const isRefund = (request: Request) => request.method === 'POST' && request.url.endsWith('/v1/refunds');
const refunded = () => r.sandbox.refunds.reduce((sum, x) => sum + x.amount, 0);
const refundKeys = () =>
  r.sandbox.requests.filter((q) => q.path === '/v1/refunds').map((q) => q.idempotencyKey);

describe('a lost answer', () => {
  it('with confirmation off: stays counted, and the same call again sends the journaled key (refunded once)', async () => {
    r = rig();
    await r.paid('lost_1', 100_000);
    let drop = true;
    const { tools, ledger } = toolsOn((q, a) => (drop && isRefund(q) ? lost() : a), {
      allow: ['refund_charge'],
      confirm: false,
      limits: { dailyRefunds: 100_000 },
    });
    const args = { reference: 'lost_1', amount: 60_000 };
    const first = await tools['refund_charge']!.execute(args);
    expect(first.text).toContain('OUTCOME UNKNOWN');
    const key = refundKeys()[0]!;
    expect(first.text).toContain(`idempotency key '${key}'`);
    expect(first.text).toContain('call it again with exactly the same arguments');
    expect(await ledger.total('refunds')).toBe(60_000);
    // get_charge, where the advice points, shows it.
    const seen = await tools['get_charge']!.execute({ reference: 'lost_1' });
    expect(seen.text).toContain('OUTCOME UNKNOWN');
    expect(seen.data).toMatchObject({
      refunds: [{ amount: { kobo: 60_000 }, state: 'unknown', idempotencyKey: key }],
    });
    drop = false;
    const again = await tools['refund_charge']!.execute(args);
    expect(again.isError).toBe(false);
    expect(refundKeys()).toEqual([key, key]);
    expect(refunded()).toBe(60_000);
    expect(await ledger.total('refunds')).toBe(60_000);
  });

  it('with confirmation on: a new preview of the same call reuses the journaled key', async () => {
    r = rig();
    await r.paid('lost_2', 100_000);
    let drop = true;
    const { tools } = toolsOn((q, a) => (drop && isRefund(q) ? lost() : a), { allow: ['refund_charge'] });
    const refund = tools['refund_charge']!;
    const preview = await refund.execute({ reference: 'lost_2' });
    const token = preview.data!['confirmationToken'] as string;
    expect((await refund.execute({ reference: 'lost_2', confirmationToken: token })).text).toContain(
      'OUTCOME UNKNOWN',
    );
    drop = false;
    const second = await refund.execute({ reference: 'lost_2' });
    expect(second.text).toContain(`idempotency key '${token}'`);
    const done = await refund.execute({
      reference: 'lost_2',
      confirmationToken: second.data!['confirmationToken'],
    });
    expect(done.isError).toBe(false);
    expect(refundKeys()).toEqual([token, token]);
    expect(refunded()).toBe(100_000);
  });
  it('get_charge on an agent without refund_charge does not advise a refund_charge call', async () => {
    r = rig();
    await r.paid('lost_3', 100_000);
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    const refunding = toolsOn((q, a) => (isRefund(q) ? lost() : a), {
      allow: ['refund_charge'],
      confirm: false,
      ledger,
    }).tools;
    await refunding['refund_charge']!.execute({ reference: 'lost_3', amount: 1_000 });
    // Another agent on the same ledger, one that can only read.
    const reader = toolsOn((_q, a) => a, { ledger }).tools;
    const seen = await reader['get_charge']!.execute({ reference: 'lost_3' });
    expect(seen.text).toContain('OUTCOME UNKNOWN');
    expect(seen.text).not.toContain('repeat the same refund_charge call');
    expect(seen.text).toContain('this agent cannot refund');
  });
});

describe('answers that do not prove anything', () => {
  const cases: [string, Tamper][] = [
    ['a 5xx after the service acted', (q, a) => (isRefund(q) ? new Response('{}', { status: 502 }) : a)],
    [
      'a refund answer for another amount (IdempotencyError)',
      (q, a) => (isRefund(q) ? rewritten(a, (d) => (d['amount'] = 1)) : a),
    ],
    [
      'an answer that breaks the schema (ResponseValidationError)',
      (q, a) => (isRefund(q) ? rewritten(a, (d) => (d['amount'] = 'lots')) : a),
    ],
  ];
  for (const [name, tamper] of cases) {
    it(`keeps the amount counted after ${name}`, async () => {
      r = rig();
      await r.paid('doubt_1', 100_000);
      const { tools, ledger } = toolsOn(tamper, { allow: ['refund_charge'], confirm: false });
      const result = await tools['refund_charge']!.execute({ reference: 'doubt_1', amount: 40_000 });
      expect(result.isError).toBe(true);
      expect(result.text).toContain('OUTCOME UNKNOWN');
      expect(result.data).toMatchObject({ error: { outcomeUnknown: true } });
      expect(refunded()).toBe(40_000);
      expect(await ledger.total('refunds')).toBe(40_000);
    });
  }
});

describe('refund amounts', () => {
  it('sends an explicit amount for a full refund: what verify says less the journaled refunds', async () => {
    r = rig();
    await r.paid('full_1', 100_000);
    // The verify answer lies low: the service can still refund only what the toolkit counted.
    const { tools, ledger } = toolsOn(
      (q, a) =>
        q.url.includes('/verify') || q.url.includes('/transactions')
          ? rewritten(a, (d) => (d['amount'] = 30_000))
          : a,
      { allow: ['refund_charge'], confirm: false },
    );
    await tools['refund_charge']!.execute({ reference: 'full_1', amount: 10_000 });
    const full = await tools['refund_charge']!.execute({ reference: 'full_1' });
    expect(full.isError).toBe(false);
    expect(r.sandbox.refunds.map((x) => x.amount)).toEqual([10_000, 20_000]);
    expect(await ledger.total('refunds')).toBe(30_000);
    const none = await tools['refund_charge']!.execute({ reference: 'full_1' });
    expect(none.data).toMatchObject({ refusedBy: 'amount', left: 0 });
  });

  it('refuses the second of two concurrent refunds that together pass what the charge paid', async () => {
    r = rig();
    await r.paid('twice_1', 100_000);
    const { tools, ledger } = toolsOn((_q, a) => a, { allow: ['refund_charge'], confirm: false });
    const answers = await Promise.all([
      tools['refund_charge']!.execute({ reference: 'twice_1', amount: 60_000, reason: 'a' }),
      tools['refund_charge']!.execute({ reference: 'twice_1', amount: 60_000, reason: 'b' }),
    ]);
    expect(answers.map((x) => x.isError).sort()).toEqual([false, true]);
    expect(answers.find((x) => x.isError)!.data).toMatchObject({ refusedBy: 'amount', left: 40_000 });
    expect(refundKeys()).toHaveLength(1);
    expect(refunded()).toBe(60_000);
    expect(await ledger.total('refunds')).toBe(60_000);
  });
});

describe('dispatches', () => {
  it('count once per key, and a charge verify proves FAILED gives its amount back', async () => {
    r = rig();
    let drop = true;
    const { tools, ledger } = toolsOn((q, a) => (drop && q.url.endsWith('/dispatch') ? lost() : a), {
      allow: ['dispatch_charge'],
      limits: { dailyCharges: 100_000 },
    });
    const args = { handle: '@ada', amount: 70_000, reference: 'disp_1', authChannel: 'wallet_push' };
    expect((await tools['dispatch_charge']!.execute(args)).text).toContain('OUTCOME UNKNOWN');
    drop = false;
    expect((await tools['dispatch_charge']!.execute(args)).isError).toBe(false);
    expect(await ledger.total('charges')).toBe(70_000);
    await r.sandbox.decline('disp_1');
    await tools['get_charge']!.execute({ reference: 'disp_1' });
    expect(await ledger.total('charges')).toBe(0);
    await tools['get_charge']!.execute({ reference: 'disp_1' });
    expect(await ledger.total('charges')).toBe(0);
  });
  it('an answer for another charge gives nothing back: get_charge settles only the reference it asked for', async () => {
    r = rig();
    await r.paid('other_1', 5_000);
    // The network answers get_charge('other_1') with another charge, FAILED.
    const { tools, ledger } = toolsOn(
      (q, a) =>
        q.url.endsWith('/verify/other_1')
          ? rewritten(a, (d) => {
              d['reference'] = 'disp_2';
              d['status'] = 'FAILED';
            })
          : a,
      { allow: ['dispatch_charge'], confirm: false, limits: { dailyCharges: 100_000 } },
    );
    const args = { handle: '@ada', amount: 70_000, reference: 'disp_2', authChannel: 'wallet_push' };
    expect((await tools['dispatch_charge']!.execute(args)).isError).toBe(false);
    const seen = await tools['get_charge']!.execute({ reference: 'other_1' });
    expect(seen).toMatchObject({ isError: true, data: { error: { code: 'reference_mismatch' } } });
    expect(await ledger.total('charges')).toBe(70_000);
    const next = { ...args, reference: 'disp_3' };
    expect((await tools['dispatch_charge']!.execute(next)).data).toMatchObject({ refusedBy: 'dailyCharges' });
  });
  it('a FAILED answer held on the way gives back only the prompts sent before it was asked', async () => {
    r = rig();
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let hold = false;
    const { tools, ledger } = toolsOn(
      async (q, a) => {
        if (hold && q.url.endsWith('/verify/disp_4')) await held;
        return a;
      },
      { allow: ['dispatch_charge'], confirm: false, limits: { dailyCharges: 100_000 } },
    );
    const args = { handle: '@ada', amount: 40_000, reference: 'disp_4', authChannel: 'wallet_push' };
    await tools['dispatch_charge']!.execute(args);
    await r.sandbox.decline('disp_4');
    // The service answers FAILED, and the network holds that answer while a new prompt goes out.
    hold = true;
    const seen = tools['get_charge']!.execute({ reference: 'disp_4' });
    expect((await tools['dispatch_charge']!.execute(args)).isError).toBe(false);
    release();
    await seen;
    await r.sandbox.authorize('disp_4');
    // The second prompt was paid: the ledger still counts it.
    expect(await ledger.total('charges')).toBe(40_000);
  });
});

describe('tokens', () => {
  it('are spent only when the operation is journaled: a ledger that fails leaves the token usable', async () => {
    r = rig();
    await r.paid('tok_1', 100_000);
    const inner = memorySpendLedger({ now: () => r.clock.now });
    let down = true;
    const ledger: SpendLedger = {
      ...inner,
      timeZone: inner.timeZone,
      begin: (request) => (down ? Promise.reject(new Error('ledger unreachable')) : inner.begin(request)),
    };
    const { tools } = toolsOn((_q, a) => a, { allow: ['refund_charge'], ledger });
    const preview = await tools['refund_charge']!.execute({ reference: 'tok_1', amount: 5_000 });
    const args = { reference: 'tok_1', amount: 5_000, confirmationToken: preview.data!['confirmationToken'] };
    const failed = await tools['refund_charge']!.execute(args);
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('No money was moved');
    expect(refunded()).toBe(0);
    down = false;
    expect((await tools['refund_charge']!.execute(args)).isError).toBe(false);
    expect(refunded()).toBe(5_000);
  });
  it('a token that confirmed the repeat of a call in doubt is spent: the same call again moves nothing', async () => {
    r = rig();
    await r.paid('tok_2', 100_000);
    let drop = true;
    const { tools } = toolsOn((q, a) => (drop && isRefund(q) ? lost() : a), { allow: ['refund_charge'] });
    const refund = tools['refund_charge']!;
    const args = { reference: 'tok_2', amount: 30_000 };
    const first = await refund.execute(args);
    await refund.execute({ ...args, confirmationToken: first.data!['confirmationToken'] });
    drop = false;
    const again = await refund.execute(args);
    const confirmed = { ...args, confirmationToken: again.data!['confirmationToken'] };
    expect((await refund.execute(confirmed)).isError).toBe(false);
    // A model that repeats its last call: the token confirmed one operation, it moves nothing more.
    const repeated = await refund.execute(confirmed);
    expect(repeated.data).toMatchObject({ refusedBy: 'token_used' });
    expect(refunded()).toBe(30_000);
  });
});

describe('get_charge', () => {
  it('still reads the charge when the ledger does not answer, saying the journal is unknown', async () => {
    r = rig();
    await r.paid('gc_1', 100_000);
    const inner = memorySpendLedger();
    const ledger: SpendLedger = {
      ...inner,
      timeZone: inner.timeZone,
      journal: () => Promise.reject(new Error('down')),
    };
    const { tools } = toolsOn((_q, a) => a, { ledger });
    const seen = await tools['get_charge']!.execute({ reference: 'gc_1' });
    expect(seen.isError).toBe(false);
    expect(seen.text).toContain('The spend ledger did not answer');
  });
});
