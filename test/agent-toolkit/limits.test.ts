/**
 * Limits in Kobo: a call that would pass one is refused before anything is sent, saying which
 * limit and how much is left; an amount known not to have moved is given back, one whose outcome
 * is unknown stays counted; live keys only with allowLive.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { ValidationError, Wallet } from '@wallet/node';

import { walletAiTools } from '../../packages/agent-toolkit/src/hosts/ai.js';
import { createMcpServer, memorySpendLedger, walletTools } from '../../packages/agent-toolkit/src/index.js';
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

describe('options read as the tools will read them', () => {
  it('checks and applies limits given by getters, class instances or a prototype', async () => {
    r = rig();
    const ledger = memorySpendLedger({ now: () => r.clock.now });
    // A config class whose environment variable is unset: NaN must not mean "no limit".
    class FromEnv {
      readonly wallet = r.wallet;
      readonly ledger = ledger;
      get limits() {
        return { perCharge: Number(process.env['WALLET_TEST_UNSET_LIMIT']) };
      }
    }
    expect(() => walletTools(new FromEnv())).toThrow(/limits\.perCharge: must be a whole number of Kobo/);
    const inherited = Object.assign(Object.create({ confirmSecret: '', confirmTtl: 1e12 }), {
      wallet: r.wallet,
      ledger,
    });
    expect(() => walletTools(inherited)).toThrow(/confirmSecret.*confirmTtl/s);

    class Limits {
      get perCharge() {
        return 1_000;
      }
    }
    const { dispatch_charge } = r.tools({ allow: ['dispatch_charge'], limits: new Limits() });
    const big = await dispatch_charge!.execute({
      handle: '@ada',
      amount: 5_000,
      reference: 'getter',
      authChannel: 'wallet_push',
    });
    expect(big.data).toMatchObject({ refusedBy: 'perCharge', limit: { kobo: 1_000 } });
    expect(r.sent()).toEqual([]);
  });

  it('reads a class instance the same way through walletAiTools and createMcpServer: no getter is dropped', () => {
    r = rig();
    class FromEnv {
      readonly wallet = r.wallet;
      readonly ledger = memorySpendLedger();
      get limits() {
        return { perCharge: Number(process.env['WALLET_TEST_UNSET_LIMIT']) };
      }
    }
    expect(() => walletAiTools(new FromEnv())).toThrow(/limits\.perCharge: must be a whole number of Kobo/);
    expect(() => createMcpServer(new FromEnv())).toThrow(/limits\.perCharge: must be a whole number of Kobo/);
  });

  it('refuses limits whose getter throws: a limit that cannot be read is not "no limit"', () => {
    r = rig();
    class Broken {
      readonly wallet = r.wallet;
      readonly ledger = memorySpendLedger();
      readonly allow = ['refund_charge'] as const;
      get limits(): { perRefund: number } {
        throw new Error('config service down');
      }
    }
    const refused = /limits: could not be read \(its getter threw\)/;
    expect(() => walletTools(new Broken())).toThrow(refused);
    expect(() => walletAiTools(new Broken())).toThrow(refused);
    expect(() => createMcpServer(new Broken())).toThrow(refused);
    class BrokenInside {
      get perRefund(): number {
        throw new Error('config service down');
      }
    }
    expect(() => r.tools({ allow: ['refund_charge'], limits: new BrokenInside() })).toThrow(
      /limits\.perRefund: could not be read/,
    );
  });

  it("checks the hosts' own options: a server name that cannot be read, or is not text, is refused", () => {
    r = rig();
    const base = { wallet: r.wallet, ledger: memorySpendLedger() };
    const unreadable = Object.defineProperty({ ...base }, 'name', {
      enumerable: true,
      get() {
        throw new Error('config service down');
      },
    });
    expect(() => createMcpServer(unreadable)).toThrow(/createMcpServer options.*name: could not be read/s);
    expect(() => createMcpServer({ ...base, version: 2 } as never)).toThrow(
      /version: must be a non-empty string/,
    );
    expect(() => walletAiTools({ ...base, needsApproval: 'yes' } as never)).toThrow(
      /walletAiTools options.*needsApproval: must be true or false/s,
    );
  });

  it('refuses options it cannot list (a Proxy whose traps throw, a revoked one) with a ValidationError', () => {
    const throwing = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    for (const options of [throwing, revoked.proxy]) {
      for (const [name, make] of [
        ['walletTools', walletTools],
        ['walletAiTools', walletAiTools],
        ['createMcpServer', createMcpServer],
      ] as const) {
        expect(() => make(options as never), name).toThrow(ValidationError);
        expect(() => make(options as never), name).toThrow(`${name} options: could not be read`);
      }
    }
  });

  // A missing await, as the SDK names it for new Wallet(): not 'wallet: must be a Wallet client', which it is.
  it('refuses options that are a Promise of them, naming the missing await', () => {
    r = rig();
    const options = Promise.resolve({ wallet: r.wallet, ledger: memorySpendLedger() });
    for (const [name, make] of [
      ['walletTools', walletTools],
      ['walletAiTools', walletAiTools],
      ['createMcpServer', createMcpServer],
    ] as const) {
      expect(() => make(options as never), name).toThrow(
        `Invalid ${name} options: options: must be an object, not a Promise (a missing await?).`,
      );
    }
  });

  it('refuses options it can read only in part: what it checked must be what runs', async () => {
    r = rig();
    let reads = 0;
    // A limit that reads 1,000,000 Kobo twice, then nothing: a second read must never happen.
    const limits = {
      get perCharge() {
        return ++reads <= 2 ? 1_000_000 : undefined;
      },
    };
    const values: Record<string, unknown> = {
      wallet: r.wallet,
      ledger: memorySpendLedger(),
      allow: ['dispatch_charge'],
      confirm: false,
      limits,
    };
    // A Proxy that lists its names but throws when asked about any other.
    const options = new Proxy(Object.fromEntries(Object.keys(values).map((k) => [k, 0])), {
      getOwnPropertyDescriptor(target, key) {
        if (!Object.hasOwn(target, key)) throw new Error(`no setting ${String(key)}`);
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      get: (target, key, receiver) =>
        typeof key === 'string' && Object.hasOwn(target, key)
          ? values[key]
          : Reflect.get(target, key, receiver),
    });
    expect(() => walletTools(options as never)).toThrow(/walletTools options.*could not be read/s);
    expect(r.sent()).toEqual([]);
  });

  it("takes a ledger's over answer as the refusal, even where this process's limits would pass", async () => {
    r = rig();
    const inner = memorySpendLedger({ now: () => r.clock.now });
    // A merchant's own ledger enforcing a cap shared by a fleet: it knows the day is used up.
    const shared = {
      ...inner,
      timeZone: inner.timeZone,
      begin: async () => ({ state: 'over' as const, total: 0 }),
    };
    const { dispatch_charge } = r.tools({
      allow: ['dispatch_charge'],
      limits: { dailyCharges: 10_000_000 },
      ledger: shared,
    });
    const result = await dispatch_charge!.execute({
      handle: '@ada',
      amount: 5_000,
      reference: 'shared-cap',
      authChannel: 'wallet_push',
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Refused by limit 'dailyCharges': nothing was sent");
    expect(result.text).toContain('Nothing more can pass today');
    expect(result.data).toMatchObject({ refusedBy: 'dailyCharges', left: { kobo: 0 } });
    expect(moneyPosts(r)).toEqual([]);
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
