/**
 * Bad options to the webhook handlers and dedupe stores are a typed error (a WalletError subclass)
 * with a message that says what to change; nothing is half-created. The other functions: bad-input.test.ts.
 */
import type { RequestListener } from 'node:http';

import { createClient } from 'redis';
import { describe, expect, test } from 'vitest';

import {
  ValidationError,
  WebhookVerificationError,
  createNodeWebhookHandler,
  createWebhookHandler,
  memoryDedupeStore,
  redisDedupeStore,
} from '../../src/webhooks.js';
import type { RedisClientLike, WebhookHandlerOptions } from '../../src/webhooks.js';
import { BODY, SECRET, SIGNATURE, close, deliver, listen, thrown } from './helpers.js';

const onEvent = (): void => undefined;
const creators = [
  ['createWebhookHandler', createWebhookHandler],
  ['createNodeWebhookHandler', createNodeWebhookHandler],
] as const;

describe.each(creators)('%s options', (name, create) => {
  const make = (options: unknown) => () => create(options as WebhookHandlerOptions);

  test.each([null, undefined, 'whsec', 42, [], () => undefined])('refuses %s as options', (options) => {
    const error = thrown(make(options));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(`${name} options`);
    expect(error.message).toContain('must be an object');
  });

  test('refuses a missing or non-function onEvent', () => {
    for (const value of [undefined, 'handle', {}]) {
      const error = thrown(make({ secret: SECRET, onEvent: value }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['onEvent']);
      expect(error.message).toMatch(/onEvent: (is required|must be a function)/);
    }
  });

  // An async handler called instead of passed (onEvent: handle()) is a Promise: awaiting it, as
  // 'a missing await?' would have it, runs the handler once at boot and passes its undefined.
  test('refuses an onEvent that is a Promise, saying to pass the function itself', () => {
    const handle = async (): Promise<void> => undefined;
    const error = thrown(make({ secret: SECRET, onEvent: handle() }));
    expect((error as ValidationError).issues).toEqual([
      {
        path: 'onEvent',
        message:
          'must be a function, not a Promise: pass the function itself (not the result of calling it), or await the Promise that gives it',
      },
    ]);
  });

  test.each([
    ['maxBodyBytes', -1],
    ['maxBodyBytes', 0],
    ['maxBodyBytes', 1.5],
    ['maxBodyBytes', Number.NaN],
    ['maxBodyBytes', '1024'],
    ['bodyTimeout', 0],
    ['bodyTimeout', -5],
    ['bodyTimeout', Infinity],
    ['bodyTimeout', 2 ** 31],
    ['bodyTimeout', '10s'],
  ])('refuses %s: %s', (option, value) => {
    const error = thrown(make({ secret: SECRET, onEvent, [option]: value })) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([option]);
    expect(error.message).toMatch(/must be a whole number from 1 to/);
  });

  test.each([
    ['maxBodySize', 'maxBodyBytes'],
    ['bodyTimout', 'bodyTimeout'],
    ['onevent', 'onEvent'],
    ['dedup', 'dedupe'],
    ['secrets', 'secret'],
  ])('names %s as unknown and suggests %s', (typo, meant) => {
    const error = thrown(make({ secret: SECRET, onEvent, [typo]: 1 })) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toContainEqual({
      path: typo,
      message: `is not an option of ${name} (did you mean '${meant}'?)`,
    });
  });

  test('lists every problem at once, the secret too when other problems are listed', () => {
    const empty = thrown(make({ secret: 42 })) as ValidationError;
    expect(empty.issues.map((i) => i.path).sort()).toEqual(['onEvent', 'secret']);
    // A missing secret is no problem at creation (a build without the variable): onEvent still is.
    const unset = thrown(make({})) as ValidationError;
    expect(unset.issues.map((i) => i.path)).toEqual(['onEvent']);
    const error = thrown(make({ secret: SECRET, maxBodySize: 1, bodyTimeout: -1 })) as ValidationError;
    expect(error.issues.map((i) => i.path).sort()).toEqual(['bodyTimeout', 'maxBodySize', 'onEvent']);
  });

  test('refuses a dedupe that is not a store, and an onError that is not a function', () => {
    const error = thrown(make({ secret: SECRET, onEvent, dedupe: {}, onError: 'log' })) as ValidationError;
    expect(error.issues.map((i) => i.path).sort()).toEqual(['dedupe', 'onError']);
  });

  test('a malformed secret stays a WebhookVerificationError (missing_secret), as in the verifiers', () => {
    for (const secret of [[], [SECRET, ''], [SECRET, undefined], 42, {}]) {
      const error = thrown(make({ secret, onEvent }));
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).reason).toBe('missing_secret');
    }
  });

  test("checks a config class's getters as its own options: an unset variable's NaN is no body cap", () => {
    class Settings {
      readonly secret = SECRET;
      onEvent(): void {}
      get maxBodyBytes(): number {
        return Number(process.env['WALLET_TEST_UNSET_MAX_BODY']);
      }
    }
    const error = thrown(make(new Settings()));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual(['maxBodyBytes']);
  });

  test("runs a config class's methods as its own: onEvent and onError see `this`", async () => {
    class Payments {
      readonly secret = SECRET;
      readonly #seen: string[] = [];
      onEvent(event: { data: { reference: string } }): void {
        this.#seen.push(event.data.reference);
        if (this.#seen.length > 1) throw new Error('second time');
      }
      onError(error: Error): void {
        this.#seen.push(`error: ${error.message}`);
      }
      seen(): string[] {
        return this.#seen;
      }
    }
    const payments = new Payments();
    const handler = create(payments as unknown as WebhookHandlerOptions);
    const headers = { 'x-wallet-signature': SIGNATURE, 'content-type': 'application/json' };
    const send = async (): Promise<void> => {
      if (name === 'createWebhookHandler') {
        const request = new Request('https://m.example/', { method: 'POST', body: BODY, headers });
        await (handler as (r: Request) => Promise<Response>)(request);
        return;
      }
      const { url, server } = await listen(handler as RequestListener);
      await deliver(url, BODY, SIGNATURE).finally(() => close(server));
    };
    await send();
    await send();
    expect(payments.seen()).toEqual(['order_1042', 'order_1042', 'error: second time']);
  });

  // Called as the options' own, not through the function's `bind`, which it may not have (no
  // prototype), may have its own of, or may guard (a callable Proxy): called as given before.
  test('calls an onEvent without Function.prototype.bind of its own, a callable Proxy guarding it', async () => {
    const calls: string[] = [];
    const bare = function (this: unknown): void {
      calls.push(`bare ${this === options[0]}`);
    };
    Object.setPrototypeOf(bare, null);
    const ownBind = Object.assign(() => void calls.push('ownBind'), { bind: () => 'not a function' });
    const guarded = new Proxy(() => void calls.push('guarded'), {
      get(target, key) {
        if (key === 'bind') throw new Error('read of bind');
        return Reflect.get(target, key);
      },
    });
    const options = [bare, ownBind, guarded].map((f) => ({ secret: SECRET, onEvent: f }));
    for (const given of options) {
      const handler = create(given);
      if (name === 'createWebhookHandler') {
        const headers = { 'x-wallet-signature': SIGNATURE, 'content-type': 'application/json' };
        const request = new Request('https://m.example/', { method: 'POST', body: BODY, headers });
        const response = await (handler as (r: Request) => Promise<Response>)(request);
        expect(response.status).toBe(200);
      } else {
        const { url, server } = await listen(handler as RequestListener);
        const response = await deliver(url, BODY, SIGNATURE).finally(() => close(server));
        expect(response.status).toBe(200);
      }
    }
    expect(calls).toEqual(['bare true', 'ownBind', 'guarded']);
  });

  test('refuses options it cannot read (a Proxy whose traps throw, a revoked one) with a ValidationError', () => {
    const throwing = new Proxy(
      { secret: SECRET, onEvent },
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    const revoked = Proxy.revocable({ secret: SECRET, onEvent }, {});
    revoked.revoke();
    for (const options of [throwing, revoked.proxy]) {
      const error = thrown(make(options));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toContain('could not be read');
    }
  });

  test('names a secret whose getter throws once', () => {
    class Settings {
      onEvent(): void {}
      get secret(): string {
        throw new Error('vault sealed');
      }
    }
    const error = thrown(make(new Settings()));
    expect((error as ValidationError).issues).toEqual([
      { path: 'secret', message: 'could not be read (its getter threw)' },
    ]);
  });

  test('valid options create a handler', () => {
    expect(typeof make({ secret: SECRET, onEvent, maxBodyBytes: 10, bodyTimeout: 5 })()).toBe('function');
  });
});

describe('dedupe store options', () => {
  test.each([
    [{ ttl: 0 }, 'ttl'],
    [{ ttl: -1 }, 'ttl'],
    [{ claimTtl: 1.5 }, 'claimTtl'],
    [{ ttl: 1000, claimTtl: 1000 }, 'claimTtl'],
    [{ tll: 5 }, 'tll'],
  ])('memoryDedupeStore refuses %o', (options, path) => {
    const error = thrown(() => memoryDedupeStore(options as never)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([path]);
  });

  test.each([
    [{ ttl: 604_800 }, 'ttl', 'did you mean 604_800_000?'],
    [{ ttl: 86_400 }, 'ttl', 'did you mean 86_400_000?'],
    [{ claimTtl: 30 }, 'claimTtl', 'did you mean 30_000?'],
    [{ ttl: 999 }, 'ttl', 'did you mean 999_000?'],
  ])('both stores refuse %o as seconds, with the value in milliseconds', (options, path, fix) => {
    const client = createClient({ url: 'redis://127.0.0.1:1' });
    for (const make of [() => memoryDedupeStore(options), () => redisDedupeStore(client, options)]) {
      const error = thrown(make) as ValidationError;
      expect(error.issues.map((i) => i.path)).toEqual([path]);
      expect(error.message).toContain('durations are milliseconds');
      expect(error.message).toContain(fix);
    }
  });

  test.each([{ ttl: 60_000 }, { claimTtl: 30_000 }, { claimTtl: 1_000 }, { ttl: 3_600_000 }, { ttl: 1_000 }])(
    'both stores take %o alone, deriving the other duration from it',
    (options) => {
      const client = createClient({ url: 'redis://127.0.0.1:1' });
      expect(memoryDedupeStore(options).claimTtl).toBeLessThan(options.ttl ?? Infinity);
      expect(redisDedupeStore(client, options).claimTtl).toBe(
        options.claimTtl ?? Math.min(60_000, Math.floor(options.ttl / 2)),
      );
    },
  );

  test("memoryDedupeStore checks a config class's getters as its own options", () => {
    class Ttl {
      get claimTtl(): number {
        return Number(process.env['WALLET_TEST_UNSET_CLAIM_TTL']);
      }
    }
    const error = thrown(() => memoryDedupeStore(new Ttl()));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual(['claimTtl']);
  });

  test('memoryDedupeStore refuses options it cannot read with a ValidationError', () => {
    const revoked = Proxy.revocable({ ttl: 1_000 }, {});
    revoked.revoke();
    const throwing = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    for (const options of [throwing, revoked.proxy]) {
      expect(thrown(() => memoryDedupeStore(options))).toBeInstanceOf(ValidationError);
    }
  });

  test('memoryDedupeStore refuses non-object options and suggests ttl for tll', () => {
    expect(thrown(() => memoryDedupeStore(null as never))).toBeInstanceOf(ValidationError);
    expect(thrown(() => memoryDedupeStore({ tll: 5 } as never)).message).toContain("did you mean 'ttl'?");
  });

  test('redisDedupeStore refuses a value that is no Redis client, before any option', () => {
    for (const client of [null, undefined, {}, 'redis://localhost', { get: () => 1 }]) {
      const error = thrown(() => redisDedupeStore(client as unknown as RedisClientLike));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toContain('redis (createClient) or ioredis');
    }
  });

  test('redisDedupeStore given a Redis URL instead of a client never prints the password in it', () => {
    const url = 'redis://:hunter2-secret-password@cache.internal:6379';
    const error = thrown(() => redisDedupeStore(url as unknown as RedisClientLike));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).not.toMatch(/hunter2|secret|password@|cache\.internal/);
    expect(error.message).toContain('createClient({ url })');
  });

  test('redisDedupeStore checks its options without touching the client (never connected here)', () => {
    const client = createClient({ url: 'redis://127.0.0.1:1' });
    const error = thrown(() =>
      redisDedupeStore(client, { prefix: 5, timeout: 0, prefx: 'x' } as never),
    ) as ValidationError;
    expect(error.issues.map((i) => i.path).sort()).toEqual(['prefix', 'prefx', 'timeout']);
    expect(error.message).toContain("did you mean 'prefix'?");
  });
});
