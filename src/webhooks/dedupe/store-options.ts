/**
 * The ttl options both built-in dedupe stores take, and the tokens that prove who owns a claim.
 */
import { MAX_TIMER_MS, checkOptions, throwIssues, wholeNumber, type OptionRule } from '../../core/options.js';

/** Default of the stores' `ttl`: how long a handled event is remembered, 7 days in ms. */
const DEFAULT_DONE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Default of the stores' `claimTtl`: how long a claim blocks other deliveries, 60 s in ms. */
const DEFAULT_CLAIM_TTL_MS = 60_000;

/** Options of {@link memoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * Milliseconds a handled event is remembered: a redelivery within it is answered 200 without
   * `onEvent`. Choose it longer than the service's whole retry window.
   *
   * @default 604_800_000 (7 days)
   */
  ttl?: number;
  /**
   * Milliseconds a claim holds off other deliveries of its event while `onEvent` runs. If the
   * process dies mid-event, the event runs again on a redelivery after this; if `onEvent` runs
   * longer than this, a redelivery may run it concurrently. Choose it above `onEvent`'s longest run.
   *
   * @default 60_000
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

/** The rules of `ttl` and `claimTtl`, for both stores. */
export const TTL_RULES: Readonly<Record<keyof MemoryDedupeStoreOptions, OptionRule>> = {
  // Redis takes PX up to 2^63 ms; the memory store compares timestamps. 100 years is plenty for both.
  ttl: wholeNumber(1, 100 * 365 * 24 * 3600 * 1000),
  claimTtl: wholeNumber(1, MAX_TIMER_MS),
};

/**
 * Checks a store's options against `rules` and throws every problem at once; the claim must
 * expire before the done mark.
 */
export function checkStoreOptions<T extends MemoryDedupeStoreOptions>(
  options: T | undefined,
  rules: Readonly<Record<keyof T, OptionRule>>,
  store: string,
): T & StoreTtls {
  const issues = checkOptions(options, rules, '', `an option of ${store}`);
  const given = (issues.length === 0 ? (options ?? {}) : {}) as T;
  const ttl = given.ttl ?? DEFAULT_DONE_TTL_MS;
  const claimTtl = given.claimTtl ?? DEFAULT_CLAIM_TTL_MS;
  if (issues.length === 0 && claimTtl >= ttl) {
    issues.push({ path: 'claimTtl', message: `must be shorter than ttl (${ttl} ms), not ${claimTtl}` });
  }
  throwIssues(`${store} options`, issues);
  return { ...given, ttl, claimTtl };
}

/** A random token that names one claim; Web Crypto, so edge runtimes have it too. */
export function claimToken(): string {
  return globalThis.crypto.randomUUID();
}
