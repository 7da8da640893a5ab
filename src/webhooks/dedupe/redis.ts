/**
 * A dedupe store on the merchant's own Redis client (found by shape: no Redis package imported). A claim
 * is `SET NX PX` of the claimant's token (one racing delivery wins); done overwrites it with a long mark.
 */
import { MAX_TIMER_MS, ofType, wholeNumber, type OptionRule } from '../../core/options.js';
import { ValidationError } from '../../errors/base.js';
import { describe } from '../../internal/values.js';
import {
  TTL_RULES,
  checkStoreOptions,
  claimToken,
  type DedupeClaim,
  type MemoryDedupeStoreOptions,
  type WebhookDedupeStore,
} from './store.js';

/** A `redis` (node-redis v4 and later) client: `createClient()`, connected. */
export interface NodeRedisClientLike {
  /** node-redis's raw command call. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** An `ioredis` client: `new Redis()`. */
export interface IoRedisClientLike {
  /** ioredis's raw command call. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * A Redis client from the `redis` package (v4 and later, a single server, not `createCluster`) or
 * from `ioredis` (a single server or `Cluster`). The SDK loads neither: it uses the one you pass.
 */
export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike;

/** Sends one command, for example `['SET', key, value, 'NX']`, and resolves to the raw reply. */
export type RedisCommand = (args: readonly string[]) => Promise<unknown>;

/**
 * A command function for `client`, or a `ValidationError` titled `what`. The one adapter, also used
 * by `@wallet/agent-toolkit`'s `redisSpendLedger`. ioredis first: its `sendCommand` takes a Command.
 */
export function redisCommand(client: unknown, what = 'redisDedupeStore client'): RedisCommand {
  const c = client as Partial<Record<'call' | 'sendCommand', unknown>> | null;
  if (typeof c === 'object' && c !== null) {
    if (typeof c.call === 'function') {
      const io = client as IoRedisClientLike;
      return ([command, ...args]) => io.call(command!, ...args);
    }
    if (typeof c.sendCommand === 'function') {
      const node = client as NodeRedisClientLike;
      return (args) => node.sendCommand([...args]);
    }
  }
  throw new ValidationError(what, [
    {
      path: 'client',
      // A string is a URL whose password a message must not repeat: only its kind is named.
      message:
        typeof client === 'string'
          ? 'must be a connected client of the redis (createClient) or ioredis package, got a string: pass createClient({ url }) connected, not the URL'
          : `must be a connected client of the redis (createClient) or ioredis package, got ${describe(client)}`,
    },
  ]);
}

/** Rejects after `ms`: clients queue commands while disconnected, and an answer must not wait. */
export function withTimeout(command: RedisCommand, ms: number, name = 'Redis'): RedisCommand {
  return async (args) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${name} did not answer ${args[0]} within ${ms} ms.`)), ms);
    });
    try {
      return await Promise.race([command(args), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Options of {@link redisDedupeStore}. */
export interface RedisDedupeStoreOptions extends MemoryDedupeStoreOptions {
  /**
   * Prepended to every key, to keep this store's keys apart from others in the same database.
   *
   * @default 'wallet:webhook:'
   */
  prefix?: string;
  /**
   * Milliseconds allowed for each Redis command. Past it the delivery is answered 503 (and comes
   * again): the common clients queue commands while disconnected rather than failing them.
   *
   * @default 2_000
   */
  timeout?: number;
}

const RULES: Readonly<Record<keyof RedisDedupeStoreOptions, OptionRule>> = {
  ...TTL_RULES,
  prefix: ofType('string'),
  timeout: wholeNumber(1, MAX_TIMER_MS),
};

const CLAIM = 'claim:';
const DONE = 'done';

// Compare-and-act in one step, so a claim that expired and was taken by another delivery is left alone.
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
const RENEW_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";

const decoder = new TextDecoder();

/** A bulk-string reply as text: a string, or bytes when the client returns Buffers. */
const text = (reply: unknown): string | undefined =>
  typeof reply === 'string' ? reply : reply instanceof Uint8Array ? decoder.decode(reply) : undefined;

/**
 * A {@link WebhookDedupeStore} on Redis, through your own connected client of the `redis`
 * (node-redis v4 and later) or `ioredis` package; this SDK loads neither. Every process sharing the
 * database runs `onEvent` once per event. A handled event is remembered for `ttl`; a claim lasts
 * `claimTtl`, renewed while `onEvent` runs, so a worker dying mid-event holds its event back only
 * that long and a slow `onEvent` never runs twice. Redis unreachable: 503 without `onEvent`; lost
 * while `onEvent` runs: 503 once it ends, so `onEvent` may run again for that event.
 *
 * @param client - a connected `createClient()` (redis) or `new Redis()` (ioredis) client.
 * @param options - see {@link RedisDedupeStoreOptions}.
 * @returns a store to pass as the handlers' `dedupe` option.
 * @throws ValidationError for a client of another shape, a bad option, or an unknown option.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createNodeWebhookHandler, redisDedupeStore } from '@wallet/node/webhooks';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL! }).connect();
 * export const handler = createNodeWebhookHandler({
 *   secret: process.env.WALLET_WEBHOOK_SECRET!,
 *   dedupe: redisDedupeStore(redis, { prefix: 'shop:webhooks:' }),
 *   async onEvent(event) {
 *     if (event.event === 'charge.success') console.log('paid', event.data.reference);
 *   },
 * });
 * ```
 */
export function redisDedupeStore(
  client: RedisClientLike,
  options?: RedisDedupeStoreOptions,
): WebhookDedupeStore {
  const command = redisCommand(client);
  const {
    ttl,
    claimTtl,
    prefix = 'wallet:webhook:',
    timeout = 2_000,
  } = checkStoreOptions(options, RULES, 'redisDedupeStore');
  const send = withTimeout(command, timeout);
  const key = (id: string): string => `${prefix}${id}`;

  return {
    claimTtl,
    async claim(id: string): Promise<DedupeClaim> {
      const token = claimToken();
      const set = await send(['SET', key(id), CLAIM + token, 'NX', 'PX', String(claimTtl)]);
      if (text(set) === 'OK') return { status: 'claimed', token };
      // Held: by a done mark, or by a claim (or by nothing, if it expired in between: try later).
      return text(await send(['GET', key(id)])) === DONE ? { status: 'done' } : { status: 'busy' };
    },
    async done(id: string): Promise<void> {
      // Unconditional: onEvent succeeded, which is a fact whoever holds the key now.
      await send(['SET', key(id), DONE, 'PX', String(ttl)]);
    },
    async renew(id: string, token: string): Promise<boolean> {
      const reply = await send(['EVAL', RENEW_SCRIPT, '1', key(id), CLAIM + token, String(claimTtl)]);
      return reply === 1 || text(reply) === '1';
    },
    async release(id: string, token: string): Promise<void> {
      await send(['EVAL', RELEASE_SCRIPT, '1', key(id), CLAIM + token]);
    },
  };
}
