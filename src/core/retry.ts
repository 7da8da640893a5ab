/**
 * When to try again, and how long to wait. Retrying is safe because every POST carries one
 * idempotency key across all of its attempts, so the service never acts on a call twice.
 */

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** The longest `Retry-After` the SDK waits out; a longer ask surfaces the error instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** True for the statuses worth another attempt: 408, 429 and 5xx. Never other 4xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Parses `Retry-After`, either seconds or an HTTP date, into milliseconds from `now`.
 * Returns undefined when absent or unreadable, so the caller falls back to its backoff.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with jitter: about 0.5 s, 1 s, 2 s … up to 8 s, each shortened by up to a
 * quarter at random so that many clients failing together do not retry together.
 *
 * @param retry - 1 for the first retry.
 */
export function backoffDelay(retry: number, random: number = Math.random()): number {
  const full = Math.min(BASE_DELAY_MS * 2 ** (retry - 1), MAX_DELAY_MS);
  return Math.round(full * (1 - 0.25 * random));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it fires. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
