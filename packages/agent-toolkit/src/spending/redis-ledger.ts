/** The spend ledger in Redis for a fleet: each step one Lua script; a command that times out refuses the call. */
import { createHash } from 'node:crypto';
import type { RedisClientLike } from '@wallet/node';
import { MAX_TIMER_MS, ofType, redisCommand, wholeNumber, withTimeout } from '@wallet/node/workspace';
import {
  CUT_OFF_MS,
  JOURNAL_MS,
  ledgerDays,
  timeZoneMismatch,
  type BeginAnswer,
  type JournalEntry,
  type SpendLedger,
  type SpendLedgerOptions,
} from './ledger.js';

/** Options of {@link redisSpendLedger}. */
export interface RedisSpendLedgerOptions extends SpendLedgerOptions {
  /** Prefix of every key. @default 'wallet:agent:' */
  prefix?: string;
  /** How long a command may take before the call is refused (nothing is sent then), ms. @default 2000 */
  commandTimeout?: number;
}

// KEYS: zone, call index, token, total. ARGV: zone, key, amount, limit ('' none), token ttl ms
// ('' none), prefix, reference, day ttl s, journal ttl s, cut-off time ms, paid ('' none), then the
// entry's fields as name, value.
const BEGIN = `
local function spent() if ARGV[5] ~= '' then redis.call('SET', KEYS[3], '1', 'PX', ARGV[5]) end end
local zone = redis.call('GET', KEYS[1])
if not zone then redis.call('SET', KEYS[1], ARGV[1]) elseif zone ~= ARGV[1] then return {'zone', zone} end
if ARGV[5] ~= '' then
  local own = ARGV[6] .. 'entry:' .. ARGV[2]
  local state = redis.call('HGET', own, 'state')
  if state == 'sent' or state == 'unknown' then spent() return {'repeat', redis.call('HGETALL', own)} end
end
local flying = nil
for _, prior in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  local entry = ARGV[6] .. 'entry:' .. prior
  local fields = redis.call('HMGET', entry, 'state', 'at')
  if fields[1] == 'unknown' or (fields[1] == 'sent' and tonumber(fields[2]) <= tonumber(ARGV[10])) then
    spent()
    return {'repeat', redis.call('HGETALL', entry)}
  end
  if fields[1] == 'sent' and not flying then flying = entry end
end
if ARGV[5] ~= '' and (redis.call('EXISTS', KEYS[3]) == 1 or redis.call('EXISTS', ARGV[6] .. 'entry:' .. ARGV[2]) == 1) then return {'token_used'} end
if flying then return {'in_flight', redis.call('HGETALL', flying)} end
if ARGV[11] ~= '' then
  local counted = 0
  for _, key in ipairs(redis.call('LRANGE', ARGV[6] .. 'reference:' .. ARGV[7], 0, -1)) do
    local f = redis.call('HMGET', ARGV[6] .. 'entry:' .. key, 'tool', 'state', 'amount')
    if f[1] == 'refund_charge' and f[2] ~= 'failed' then counted = counted + tonumber(f[3]) end
  end
  if counted + tonumber(ARGV[3]) > tonumber(ARGV[11]) then return {'over_paid', tostring(counted)} end
end
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
if ARGV[4] ~= '' and total + tonumber(ARGV[3]) > tonumber(ARGV[4]) then return {'over', tostring(total)} end
total = redis.call('INCRBY', KEYS[4], ARGV[3])
redis.call('EXPIRE', KEYS[4], ARGV[8])
local entry = ARGV[6] .. 'entry:' .. ARGV[2]
redis.call('HSET', entry, unpack(ARGV, 12))
redis.call('EXPIRE', entry, ARGV[9])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[9])
redis.call('RPUSH', ARGV[6] .. 'reference:' .. ARGV[7], ARGV[2])
redis.call('EXPIRE', ARGV[6] .. 'reference:' .. ARGV[7], ARGV[9])
spent()
return {'begun', tostring(total)}`;

// KEYS: entry. ARGV: state, prefix, day ttl s. 'failed' gives the amount back once, never below
// zero; a total that had expired is made again with its ttl, so it cannot stay forever.
const FINISH = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'failed' then return 0 end
if ARGV[1] == 'failed' then
  local fields = redis.call('HMGET', KEYS[1], 'kind', 'day', 'amount')
  local total = ARGV[2] .. fields[1] .. ':' .. fields[2]
  if redis.call('DECRBY', total, fields[3]) < 0 then redis.call('SET', total, '0', 'KEEPTTL') end
  if redis.call('TTL', total) < 0 then redis.call('EXPIRE', total, ARGV[3]) end
end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
return 1`;

// Totals outlive their day so a late give-back finds them; the journal stays for refunds of old charges.
const DAY_TTL_SECONDS = String(3 * 86_400);
const JOURNAL_TTL_SECONDS = String(JOURNAL_MS / 1000);

// A hash as the client gives it: a flat list (ioredis, and any reply of a script), or an object
// (node-redis's HGETALL), or a Map (node-redis on RESP3).
function entryOf(reply: unknown): JournalEntry {
  const fields: Record<string, string> = {};
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) fields[String(reply[i])] = String(reply[i + 1]);
  } else if (reply instanceof Map) {
    for (const [name, value] of reply) fields[String(name)] = String(value);
  } else if (typeof reply === 'object' && reply !== null) {
    for (const [name, value] of Object.entries(reply)) fields[name] = String(value);
  }
  return {
    ...(fields as unknown as JournalEntry),
    amount: Number(fields['amount']),
    at: Number(fields['at']),
  };
}

/**
 * A spend ledger in Redis: every process given the same Redis (and prefix) shares the daily
 * totals, the journal and the spent confirmation tokens. `client` is a connected `redis`
 * (`createClient()`) or `ioredis` client; the toolkit loads neither package.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { redisSpendLedger } from '@wallet/agent-toolkit';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * client.on('error', (error) => console.error('redis:', error.message)); // it reconnects by itself
 * const ledger = redisSpendLedger(client, { timeZone: 'Africa/Lagos' });
 * ```
 */
export function redisSpendLedger(client: RedisClientLike, given: RedisSpendLedgerOptions = {}): SpendLedger {
  const { timeZone, now, dayOf, options } = ledgerDays(given, 'redisSpendLedger', {
    prefix: ofType('string'),
    commandTimeout: wholeNumber(1, MAX_TIMER_MS),
  });
  const run = withTimeout(
    redisCommand(client, 'redisSpendLedger client'),
    options.commandTimeout ?? 2000,
    "The spend ledger's Redis",
  );
  const prefix = options.prefix ?? 'wallet:agent:';
  const totalKey = (kind: string, day: string): string => `${prefix}${kind}:${day}`;
  const callKey = (call: string): string =>
    `${prefix}call:${createHash('sha256').update(call).digest('base64url')}`;
  return {
    timeZone,
    async begin(request): Promise<BeginAnswer> {
      const at = now();
      const day = dayOf(at);
      const { key, tool, reference, kind, amount, call, token } = request;
      const fields = { key, tool, reference, kind, amount, day, state: 'sent', call, at };
      const reply = (await run([
        'EVAL',
        BEGIN,
        '4',
        `${prefix}time_zone`,
        callKey(call),
        `${prefix}token:${token?.id ?? ''}`,
        totalKey(kind, day),
        timeZone,
        key,
        String(amount),
        request.limit === undefined ? '' : String(request.limit),
        token === undefined ? '' : String(token.ttlMs),
        prefix,
        reference,
        DAY_TTL_SECONDS,
        JOURNAL_TTL_SECONDS,
        String(at - CUT_OFF_MS),
        request.paid === undefined ? '' : String(request.paid),
        ...Object.entries(fields).flatMap(([name, value]) => [name, String(value)]),
      ])) as [string, unknown?];
      const state = String(reply[0]);
      const value = reply[1];
      if (state === 'zone') throw timeZoneMismatch(String(value), timeZone, `in Redis under '${prefix}'`);
      if (state === 'repeat') return { state: 'repeat', entry: entryOf(value) };
      if (state === 'token_used') return { state: 'token_used' };
      if (state === 'in_flight') return { state: 'in_flight', entry: entryOf(value) };
      if (state === 'over') return { state: 'over', total: Number(value) };
      if (state === 'over_paid') return { state: 'over_paid', counted: Number(value) };
      return { state: 'begun', entry: { ...fields, state: 'sent' }, total: Number(value) };
    },
    async finish(key, state) {
      await run(['EVAL', FINISH, '1', `${prefix}entry:${key}`, state, prefix, DAY_TTL_SECONDS]);
    },
    async journal(reference) {
      const keys = (await run(['LRANGE', `${prefix}reference:${reference}`, '0', '-1'])) as string[];
      const entries = await Promise.all(
        keys.map(async (key) => entryOf(await run(['HGETALL', `${prefix}entry:${String(key)}`]))),
      );
      return entries.filter((entry) => entry.key !== undefined);
    },
    async total(kind, day) {
      return Number((await run(['GET', totalKey(kind, day ?? dayOf(now()))])) ?? 0);
    },
  };
}
