/**
 * The spend ledger: each day's totals of charges and refunds, checked and added in one step so
 * that no two calls can both fit under a limit that only one of them fits under, and the one-time
 * confirmation tokens. In memory here; `redis-ledger.ts` shares it across a fleet.
 */
import { ValidationError } from '@wallet/node';

/** What a daily total counts. */
export type SpendKind = 'charges' | 'refunds';

/** The answer of {@link SpendLedger.reserve}. */
export interface Reservation {
  /** True when the amount was added; false when it would have passed the limit (nothing added). */
  ok: boolean;
  /** The day the amount counts on, `YYYY-MM-DD` in the ledger's time zone. */
  day: string;
  /** That day's total after the call, Kobo. */
  total: number;
}

/** What a confirmation token's record says when a call claims it. */
export type TokenClaim =
  | { state: 'fresh' }
  | { state: 'used' }
  /** Its call ended with the outcome unknown: a repeat may go on, the amount already counted. */
  | { state: 'retry'; hold: Hold };

/** An amount counted on a day, kept with a token whose call's outcome is unknown. */
export interface Hold {
  kind: SpendKind;
  day: string;
  amount: number;
}

/**
 * Where the day's totals and the used confirmation tokens live. {@link memorySpendLedger} for one
 * process, {@link redisSpendLedger} for a fleet; any store with atomic check-and-add will do.
 */
export interface SpendLedger {
  /** Adds `amount` to today's total of `kind` unless the total would pass `limit` (none: no limit). */
  reserve(kind: SpendKind, amount: number, limit: number | undefined): Promise<Reservation>;
  /** Gives back `amount` of what was added on `day` (an amount known not to have moved). */
  release(kind: SpendKind, day: string, amount: number): Promise<void>;
  /** The total of `kind` on `day` (default today), Kobo. */
  total(kind: SpendKind, day?: string): Promise<number>;
  /** Claims a token for one call: `fresh` the first time, `used` after, `retry` after an unknown outcome. */
  claim(token: string, ttlMs: number): Promise<TokenClaim>;
  /** Records how a token's call ended: `hold` when its outcome is unknown (a repeat may go on). */
  settle(token: string, hold: Hold | null, ttlMs: number): Promise<void>;
}

/** Options of {@link memorySpendLedger} and {@link redisSpendLedger}. */
export interface SpendLedgerOptions {
  /**
   * The merchant's time zone: where a day begins and ends for the daily limits (an IANA name).
   * @default 'Africa/Lagos'
   */
  timeZone?: string;
  /** The clock, in ms since the epoch. @default Date.now @internal */
  now?: () => number;
}

/** Today's date in a time zone, `YYYY-MM-DD`. @internal */
export type DayOf = (ms: number) => string;

/** The date function for `timeZone`, or a `ValidationError` naming a zone that does not exist. @internal */
export function dayIn(timeZone: string = 'Africa/Lagos', what = 'spend ledger'): DayOf {
  let format: Intl.DateTimeFormat;
  try {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    throw new ValidationError(`${what} options`, [
      {
        path: 'timeZone',
        message: `${JSON.stringify(timeZone)} is not an IANA time zone such as 'Africa/Lagos'`,
      },
    ]);
  }
  return (ms) => format.format(ms);
}

interface TokenRecord {
  expires: number;
  hold: Hold | null;
  used: boolean;
}

/**
 * A ledger in this process's memory: right for one agent process. Its totals start at zero when
 * the process starts; a fleet of processes needs {@link redisSpendLedger}.
 *
 * @example
 * ```ts
 * const ledger = memorySpendLedger({ timeZone: 'Africa/Lagos' });
 * ```
 */
export function memorySpendLedger(options: SpendLedgerOptions = {}): SpendLedger {
  const today = dayIn(options.timeZone, 'memorySpendLedger');
  const now = options.now ?? Date.now;
  const totals = new Map<string, number>();
  const tokens = new Map<string, TokenRecord>();
  const key = (kind: SpendKind, day: string): string => `${kind}:${day}`;
  const prune = (at: number): void => {
    for (const [token, record] of tokens) if (record.expires <= at) tokens.delete(token);
    // Only yesterday and today can still change; older days would only grow the map.
    for (const k of totals.keys()) if (k.slice(-10) < today(at - 2 * 86_400_000)) totals.delete(k);
  };
  return {
    reserve(kind, amount, limit) {
      const day = today(now());
      const before = totals.get(key(kind, day)) ?? 0;
      if (limit !== undefined && before + amount > limit)
        return Promise.resolve({ ok: false, day, total: before });
      totals.set(key(kind, day), before + amount);
      return Promise.resolve({ ok: true, day, total: before + amount });
    },
    release(kind, day, amount) {
      const before = totals.get(key(kind, day)) ?? 0;
      totals.set(key(kind, day), Math.max(0, before - amount));
      return Promise.resolve();
    },
    total(kind, day) {
      return Promise.resolve(totals.get(key(kind, day ?? today(now()))) ?? 0);
    },
    claim(token, ttlMs) {
      const at = now();
      prune(at);
      const record = tokens.get(token);
      if (record === undefined) {
        tokens.set(token, { expires: at + ttlMs, hold: null, used: true });
        return Promise.resolve({ state: 'fresh' });
      }
      if (record.used || record.hold === null) return Promise.resolve({ state: 'used' });
      record.used = true;
      return Promise.resolve({ state: 'retry', hold: record.hold });
    },
    settle(token, hold, ttlMs) {
      tokens.set(token, { expires: now() + ttlMs, hold, used: hold === null });
      return Promise.resolve();
    },
  };
}
