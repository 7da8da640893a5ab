/**
 * When to try again, and how long to wait. Retrying is safe because every POST carries one
 * idempotency key across all of its attempts, so the service never acts on a call twice. A wait,
 * like an attempt, ends early when the call's signal fires (`onAbort`, below).
 */

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** The longest `Retry-After` waited out by default (the client's `maxRetryAfter`); a longer ask surfaces the error. */
export const MAX_RETRY_AFTER_MS = 20_000;

/** True for the statuses worth another attempt: 408, 429 and 5xx. Never other 4xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

// The three HTTP date forms a recipient must accept (RFC 9110, 5.6.7), matched exactly.
const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
const HTTP_DATE = new RegExp(
  `^(${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT` +
    `|(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} ${TIME} GMT` +
    `|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/**
 * Parses `Retry-After` into milliseconds from `now`: a non-negative integer of seconds (at most
 * ten digits) or a valid HTTP date. Anything else (`-5`, `5, 5` from a repeated header, `1.5`,
 * 400 digits, junk) is undefined, so the caller keeps its normal backoff; never "now" by accident,
 * never Infinity.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.length > 64) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text.includes('-') ? text.replace(/-/g, ' ') : text);
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
    const timer = setTimeout(() => {
      done?.();
      resolve();
    }, ms);
    // Through the shared fan-out: many calls waiting on one signal add one listener to it.
    const done = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(signal.reason as Error);
        })
      : undefined;
  });
}

/**
 * One `abort` listener per shared `AbortSignal`, however many calls wait on it. A merchant often
 * passes one signal (a request's, a shutdown's) to many calls at once; a listener each would pass
 * Node's limit of 10 and print `MaxListenersExceededWarning`. The calls register here instead, and
 * the signal's one listener is removed when the last of them is done.
 */
type Callback = () => void;

interface Fanout {
  callbacks: Set<Callback>;
  listener: () => void;
}

const bySignal = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `callback` once when `signal` fires (not if it has already fired: the caller checks
 * `aborted` first). Returns the function that unregisters it; call it when the wait is over.
 */
export function onAbort(signal: AbortSignal, callback: Callback): () => void {
  let fanout = bySignal.get(signal);
  if (fanout === undefined) {
    const callbacks = new Set<Callback>();
    const listener = (): void => {
      bySignal.delete(signal);
      for (const each of callbacks) each();
      callbacks.clear();
    };
    fanout = { callbacks, listener };
    bySignal.set(signal, fanout);
    signal.addEventListener('abort', listener, { once: true });
  }
  // A wrapper per registration: the same function registered twice must fire twice.
  const entry: Callback = () => callback();
  const { callbacks, listener } = fanout;
  callbacks.add(entry);
  return () => {
    if (!callbacks.delete(entry) || callbacks.size > 0) return;
    signal.removeEventListener('abort', listener);
    if (bySignal.get(signal)?.callbacks === callbacks) bySignal.delete(signal);
  };
}
