/**
 * Options read as the tools will read them: once, getters and class instances included, so what is
 * checked is what runs; a limit that cannot be read is refused, never taken for "no limit".
 */
import { afterEach, describe, expect, it } from 'vitest';

import { ValidationError } from '@wallet/node';

import { walletAiTools } from '../../packages/agent-toolkit/src/hosts/ai.js';
import { createMcpServer, memorySpendLedger, walletTools } from '../../packages/agent-toolkit/src/index.js';
import { rig, type Rig } from './setup.js';

let r: Rig;
afterEach(() => r.close());

const moneyPosts = (x: Rig) =>
  x.sent().filter((line) => line === 'POST /v1/refunds' || line === 'POST /v1/charges/dispatch');

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
