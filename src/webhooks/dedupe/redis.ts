/**
 * A dedupe store on Redis, shared by every instance of the merchant's webhook route. A claim is a
 * key set with `SET NX PX` (atomic: one of two racing deliveries wins), holding the claimant's
 * token; done overwrites it with a long-lived mark; release deletes it only while it still holds
 * the releasing token.
 */
import { MAX_TIMER_MS, ofType, wholeNumber, type OptionRule } from '../../core/options.js';
import { redisCommand, withTimeout, type RedisClientLike } from './redis-client.js';
import {
  TTL_RULES,
  checkStoreOptions,
  claimToken,
  type DedupeClaim,
  type MemoryDedupeStoreOptions,
  type WebhookDedupeStore,
} from './types.js';

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

// Compare-and-delete in one step, so a release after the claim expired and was taken by another
// delivery leaves that delivery's claim alone.
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

// Extend-if-owner in one step, for the same reason.
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
 * `claimTtl` and is renewed while `onEvent` runs, so a worker that dies mid-event holds its event
 * back only that long, and a slow `onEvent` is never run twice. When Redis cannot be reached,
 * deliveries are answered 503 and `onEvent` is not run; when it becomes unreachable while `onEvent`
 * runs, the delivery is answered 503 once `onEvent` ends, so `onEvent` may run again for that event.
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
