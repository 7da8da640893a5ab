/** The dedupe store contract, the ttl options of both built-in stores, and the store in memory. */
import { MAX_TIMER_MS, checkOptions, readOptions, throwIssues, type OptionRule } from '../../core/options.js';

/** What {@link WebhookDedupeStore.claim} found. */
export type DedupeClaim =
  | {
      /** The event is now this caller's to handle. */
      readonly status: 'claimed';
      /** Proves the claim is this caller's: pass it to `done` and `release`. */
      readonly token: string;
    }
  | {
      /** The event was already handled. */
      readonly status: 'done';
    }
  | {
      /** Another delivery holds the event's claim right now. */
      readonly status: 'busy';
    };

/**
 * Where the handlers record which events they handled, so each runs `onEvent` once across every
 * process sharing the store. Built in: {@link memoryDedupeStore} (one process) and
 * {@link redisDedupeStore} (a fleet). A store of your own must make `claim` atomic: of two
 * concurrent claims of one id, exactly one may get `claimed`.
 */
export interface WebhookDedupeStore {
  /**
   * Claims an event before `onEvent` runs. The claim expires on its own (so a crashed worker cannot
   * block an event forever), much sooner than a `done` mark does.
   */
  claim(id: string): Promise<DedupeClaim>;
  /** Marks a claimed event handled; later deliveries of it are answered 200 without `onEvent`. */
  done(id: string, token: string): Promise<void>;
  /**
   * Gives a claim back after `onEvent` failed, so the redelivery runs it. Must remove the claim only
   * while `token` still owns it: a slow worker must not release a claim taken after its own expired.
   */
  release(id: string, token: string): Promise<void>;
  /**
   * Extends a claim `token` still owns by `claimTtl`: `true`, or `false` once another delivery took
   * it. Called every third of `claimTtl` while `onEvent` runs, so a slow handler never runs twice; a
   * rejection or `false`, or no `true` for a whole `claimTtl`, answers the delivery 503 once `onEvent`
   * ends, so it comes again. Without it
   * (or without `claimTtl`) claims are not renewed and must outlast `onEvent`.
   */
  renew?(id: string, token: string): Promise<boolean>;
  /** How long a claim lasts without renewal, in ms; with {@link WebhookDedupeStore.renew}, its schedule. */
  readonly claimTtl?: number;
}

/** Options of {@link memoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * Milliseconds a handled event is remembered: a redelivery within it is answered 200 without
   * `onEvent`. Choose it longer than the service's whole retry window. At least 1000; a whole number
   * of hours written in seconds (3600, 86400, 604800) is refused as a likely unit mistake.
   *
   * @default 604_800_000 (7 days), or twice `claimTtl` when that is longer
   */
  ttl?: number;
  /**
   * Milliseconds a claim holds off other deliveries of its event without being renewed. The
   * handlers renew it every third of this while `onEvent` runs, so `onEvent` may take longer; if the
   * process dies mid-event, the event runs again on a redelivery after this. At least 1000, and
   * shorter than `ttl`.
   *
   * @default 60_000, or half of `ttl` when that is shorter
   */
  claimTtl?: number;
}

const DEFAULT_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const DEFAULT_CLAIM_TTL_MS = 60_000;
/** The shortest duration taken: anything shorter is far likelier seconds than milliseconds. */
const MIN_DURATION_MS = 1_000;

const group = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '_');

// A week written as 604800 would otherwise be taken as ten minutes: what looks like seconds (under
// 1000, or a whole number of hours in seconds that is no whole second in ms) is refused with the fix.
const duration =
  (max: number): OptionRule =>
  (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
      return `must be a whole number of milliseconds from ${group(MIN_DURATION_MS)} to ${group(max)}, not ${typeof value === 'number' ? value : typeof value}`;
    }
    if (value >= MIN_DURATION_MS && (value % 3600 !== 0 || value % 1000 === 0)) return undefined;
    const fix = value * 1000 <= max ? ` did you mean ${group(value * 1000)}?` : '';
    return `is ${value}, which looks like seconds: durations are milliseconds (at least ${group(MIN_DURATION_MS)}).${fix}`;
  };

/** The rules of `ttl` and `claimTtl`, for both stores. */
export const TTL_RULES: Readonly<Record<keyof MemoryDedupeStoreOptions, OptionRule>> = {
  // 100 years is plenty for Redis (PX) and for comparing timestamps.
  ttl: duration(100 * 365 * 24 * 3600 * 1000),
  // A timer's longest delay: the handlers renew the claim on a timer.
  claimTtl: duration(MAX_TIMER_MS),
};

/** Checks a store's options, all problems at once; the ttl not given is derived from the other. */
export function checkStoreOptions<T extends MemoryDedupeStoreOptions>(
  options: T | undefined,
  rules: Readonly<Record<keyof T, OptionRule>>,
  store: string,
): T & Required<MemoryDedupeStoreOptions> {
  // A config class's getters too, read once: what is checked is what runs.
  const read = readOptions(options, rules, `${store} options`);
  const issues = checkOptions(read, rules, '', `an option of ${store}`);
  const given = (issues.length === 0 ? (read ?? {}) : {}) as T;
  const ttl = given.ttl ?? Math.max(DEFAULT_TTL_MS, 2 * (given.claimTtl ?? 0));
  const claimTtl = given.claimTtl ?? Math.min(DEFAULT_CLAIM_TTL_MS, Math.floor(ttl / 2));
  if (issues.length === 0 && claimTtl >= ttl) {
    issues.push({
      path: 'claimTtl',
      message: `must be shorter than ttl (${group(ttl)} ms), not ${group(claimTtl)}`,
    });
  }
  throwIssues(`${store} options`, issues);
  return { ...given, ttl, claimTtl };
}

/** A random token that names one claim; Web Crypto, so edge runtimes have it too. */
export const claimToken = (): string => globalThis.crypto.randomUUID();

/** Claims between two sweeps of expired entries: memory stays bounded by the ttl at O(1) a call. */
const SWEEP_EVERY = 1024;

/**
 * A {@link WebhookDedupeStore} held in this process's memory. Concurrent deliveries of one event to
 * this process run `onEvent` once; other processes do not see it, and a restart forgets it. Memory
 * grows with the events handled within `ttl` (about 100 bytes each, plus the reference).
 *
 * @param options - see {@link MemoryDedupeStoreOptions}.
 * @returns a store to pass as the handlers' `dedupe` option.
 * @throws ValidationError for a bad `ttl` or `claimTtl`, or an unknown option.
 *
 * @example
 * ```ts
 * import { createWebhookHandler, memoryDedupeStore } from '@wallet/node/webhooks';
 *
 * export const POST = createWebhookHandler({
 *   secret: process.env.WALLET_WEBHOOK_SECRET!,
 *   dedupe: memoryDedupeStore(),
 *   async onEvent(event) {
 *     if (event.event === 'charge.success') console.log('paid', event.data.reference);
 *   },
 * });
 * ```
 */
export function memoryDedupeStore(options?: MemoryDedupeStoreOptions): WebhookDedupeStore {
  const { ttl, claimTtl } = checkStoreOptions(options, TTL_RULES, 'memoryDedupeStore');
  // The claim's token, or undefined once done; `until` is when the entry stops counting.
  const entries = new Map<string, { token: string | undefined; until: number }>();
  let claims = 0;
  const live = (id: string, now = Date.now()) => {
    const entry = entries.get(id);
    if (entry === undefined || entry.until > now) return entry;
    entries.delete(id);
    return undefined;
  };

  return {
    claimTtl,
    claim(id) {
      const now = Date.now();
      if (++claims % SWEEP_EVERY === 0) for (const key of entries.keys()) live(key, now);
      const entry = live(id, now);
      if (entry !== undefined)
        return Promise.resolve({ status: entry.token === undefined ? 'done' : 'busy' });
      const token = claimToken();
      entries.set(id, { token, until: now + claimTtl });
      return Promise.resolve({ status: 'claimed', token });
    },
    done(id) {
      entries.set(id, { token: undefined, until: Date.now() + ttl });
      return Promise.resolve();
    },
    renew(id, token) {
      const entry = live(id);
      const held = entry !== undefined && entry.token === token;
      if (held) entry.until = Date.now() + claimTtl;
      return Promise.resolve(held);
    },
    release(id, token) {
      if (live(id)?.token === token) entries.delete(id);
      return Promise.resolve();
    },
  };
}
