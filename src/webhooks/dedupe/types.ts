/**
 * The contract between the webhook handlers and a dedupe store; the ttl options both built-in
 * stores take, and the tokens that prove who owns a claim. Each option given alone is valid: the
 * one not given is derived from it. Durations are milliseconds, and values that look like seconds
 * are refused with the fix, since a week written as 604800 would otherwise be taken as ten minutes.
 */
import { MAX_TIMER_MS, checkOptions, throwIssues, type OptionRule } from '../../core/options.js';

/**
 * What {@link WebhookDedupeStore.claim} found: the event is now this caller's to handle (with the
 * token that proves it), already handled, or being handled by someone else right now.
 */
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
   * Extends a claim `token` still owns by the store's `claimTtl`, resolving `true`, or `false` when
   * the claim is no longer this token's (it expired and another delivery took it). The handlers call
   * it every third of `claimTtl` while `onEvent` runs, so a handler slower than the lease is never
   * run twice; when it rejects or resolves `false`, the delivery is answered 503 once `onEvent` ends,
   * so the service delivers again. A store without it (or without `claimTtl`) is not renewed: its
   * claims must outlast `onEvent`.
   */
  renew?(id: string, token: string): Promise<boolean>;
  /** How long a claim lasts without renewal, in ms; with {@link WebhookDedupeStore.renew}, its schedule. */
  readonly claimTtl?: number;
}

/** Default of the stores' `ttl`: how long a handled event is remembered, 7 days in ms. */
const DEFAULT_DONE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Default of the stores' `claimTtl`: how long a claim lasts unrenewed, 60 s in ms. */
const DEFAULT_CLAIM_TTL_MS = 60_000;

/** The shortest duration taken: anything shorter is far likelier seconds than milliseconds. */
const MIN_DURATION_MS = 1_000;

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

/** The ttls, checked. */
export interface StoreTtls {
  /** Done ttl in ms. */
  ttl: number;
  /** Claim ttl in ms. */
  claimTtl: number;
}

const group = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '_');

/**
 * A rule for a duration in ms from 1000 to `max`, refusing what looks like seconds with the value
 * in milliseconds: below 1000, or a whole number of hours in seconds that is no whole second in ms.
 */
const duration =
  (max: number): OptionRule =>
  (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
      return `must be a whole number of milliseconds from ${group(MIN_DURATION_MS)} to ${group(max)}, not ${typeof value === 'number' ? value : typeof value}`;
    }
    const seconds = value < MIN_DURATION_MS || (value % 3600 === 0 && value % 1000 !== 0);
    if (!seconds) return undefined;
    const fix = value * 1000 <= max ? ` did you mean ${group(value * 1000)}?` : '';
    return `is ${value}, which looks like seconds: durations are milliseconds (at least ${group(MIN_DURATION_MS)}).${fix}`;
  };

/** The rules of `ttl` and `claimTtl`, for both stores. */
export const TTL_RULES: Readonly<Record<keyof MemoryDedupeStoreOptions, OptionRule>> = {
  // Redis takes PX up to 2^63 ms; the memory store compares timestamps. 100 years is plenty for both.
  ttl: duration(100 * 365 * 24 * 3600 * 1000),
  // A timer's longest delay, since the handlers renew the claim on a timer.
  claimTtl: duration(MAX_TIMER_MS),
};

/**
 * Checks a store's options against `rules` and throws every problem at once. The option not given
 * is derived from the one given; when both are given, the claim must expire before the done mark.
 */
export function checkStoreOptions<T extends MemoryDedupeStoreOptions>(
  options: T | undefined,
  rules: Readonly<Record<keyof T, OptionRule>>,
  store: string,
): T & StoreTtls {
  const issues = checkOptions(options, rules, '', `an option of ${store}`);
  const given = (issues.length === 0 ? (options ?? {}) : {}) as T;
  const ttl = given.ttl ?? Math.max(DEFAULT_DONE_TTL_MS, 2 * (given.claimTtl ?? 0));
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
export function claimToken(): string {
  return globalThis.crypto.randomUUID();
}
