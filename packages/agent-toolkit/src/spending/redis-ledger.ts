/**
 * The spend ledger in Redis, so that a fleet of agent processes shares one set of daily limits.
 * Check-and-add is one Lua script: two processes can never both fit under a limit only one of them
 * fits under. Takes the same clients as the SDK's `redisDedupeStore`, found by shape.
 */
import type { RedisClientLike } from '@wallet/node';
import { redisCommand, withTimeout } from '@wallet/node/workspace';
import { dayIn, type Hold, type SpendLedger, type SpendLedgerOptions, type TokenClaim } from './ledger.js';

/** Options of {@link redisSpendLedger}. */
export interface RedisSpendLedgerOptions extends SpendLedgerOptions {
  /** Prefix of every key. @default 'wallet:agent:' */
  prefix?: string;
  /** How long a command may take before the call is refused (nothing is sent then), ms. @default 2000 */
  commandTimeout?: number;
}

// Adds ARGV[1] unless the total would pass ARGV[2] ('' = no limit). Returns {added, total}.
const RESERVE = `
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
if ARGV[2] ~= '' and total + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {0, total} end
total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {1, total}`;

// Gives back ARGV[1], never below zero.
const RELEASE = `
local total = redis.call('DECRBY', KEYS[1], ARGV[1])
if total < 0 then redis.call('SET', KEYS[1], '0') end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

// 'fresh' the first time; 'used' after; a hold's JSON once after an unknown outcome.
const CLAIM = `
local value = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], 'used', 'PX', ARGV[1])
if not value then return 'fresh' end
return value`;

// Totals outlive their day by two, so a late release still finds its day's key.
const DAY_TTL_SECONDS = String(3 * 86_400);

/**
 * A spend ledger in Redis: every process given the same Redis (and prefix) shares the daily totals
 * and the used confirmation tokens. `client` is a connected `redis` (`createClient()`) or `ioredis`
 * client; the toolkit loads neither package.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { redisSpendLedger } from '@wallet/agent-toolkit';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const ledger = redisSpendLedger(client, { timeZone: 'Africa/Lagos' });
 * ```
 */
export function redisSpendLedger(
  client: RedisClientLike,
  options: RedisSpendLedgerOptions = {},
): SpendLedger {
  // The SDK's adapter (the clients its redisDedupeStore takes) and its command deadline.
  const run = withTimeout(
    redisCommand(client, 'redisSpendLedger client'),
    options.commandTimeout ?? 2000,
    "The spend ledger's Redis",
  );
  const today = dayIn(options.timeZone, 'redisSpendLedger');
  const now = options.now ?? Date.now;
  const prefix = options.prefix ?? 'wallet:agent:';
  const eval1 = (script: string, key: string, ...args: string[]): Promise<unknown> =>
    run(['EVAL', script, '1', key, ...args]);
  const totalKey = (kind: string, day: string): string => `${prefix}${kind}:${day}`;
  return {
    async reserve(kind, amount, limit) {
      const day = today(now());
      const reply = (await eval1(
        RESERVE,
        totalKey(kind, day),
        String(amount),
        limit === undefined ? '' : String(limit),
        DAY_TTL_SECONDS,
      )) as [unknown, unknown];
      return { ok: Number(reply[0]) === 1, day, total: Number(reply[1]) };
    },
    async release(kind, day, amount) {
      await eval1(RELEASE, totalKey(kind, day), String(amount), DAY_TTL_SECONDS);
    },
    async total(kind, day) {
      return Number((await run(['GET', totalKey(kind, day ?? today(now()))])) ?? 0);
    },
    async claim(token, ttlMs): Promise<TokenClaim> {
      const value = String(await eval1(CLAIM, `${prefix}token:${token}`, String(ttlMs)));
      if (value === 'fresh' || value === 'used') return { state: value };
      return { state: 'retry', hold: JSON.parse(value) as Hold };
    },
    async settle(token, hold, ttlMs) {
      await run([
        'SET',
        `${prefix}token:${token}`,
        hold === null ? 'used' : JSON.stringify(hold),
        'PX',
        String(ttlMs),
      ]);
    },
  };
}
