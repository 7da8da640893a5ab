/**
 * The ttl options both built-in dedupe stores take, and the tokens that prove who owns a claim.
 */
import { MAX_TIMER_MS, OptionIssues } from '../check-options.js';
import { DEFAULT_CLAIM_TTL_MS, DEFAULT_DONE_TTL_MS } from './types.js';

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

/** Checks `ttl` and `claimTtl` of `options` into `check`; the claim must expire before the done mark. */
export function storeTtls(check: OptionIssues, options: Record<string, unknown>): StoreTtls {
  // Redis takes PX up to 2^63 ms; the memory store compares timestamps. 100 years is plenty for both.
  const ttl = check.positiveInteger(options, 'ttl', DEFAULT_DONE_TTL_MS, 100 * 365 * 24 * 3600 * 1000);
  const claimTtl = check.positiveInteger(options, 'claimTtl', DEFAULT_CLAIM_TTL_MS, MAX_TIMER_MS);
  if (claimTtl >= ttl) check.add('claimTtl', `must be shorter than ttl (${ttl} ms)`);
  return { ttl, claimTtl };
}

/** A random token that names one claim; Web Crypto, so edge runtimes have it too. */
export function claimToken(): string {
  return globalThis.crypto.randomUUID();
}
