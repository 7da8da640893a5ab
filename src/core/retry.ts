import type { AttemptResult } from './types.js';
import type { Logger } from './trace.js';

// The time of a call: each attempt's deadline and what its failure proves, when to retry and how
// long to wait (safe: a POST keeps one idempotency key across its attempts).

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

/** `Retry-After` in ms from `now`: whole seconds (up to ten digits) or an HTTP date; anything else undefined. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.length > 64) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text.includes('-') ? text.replace(/-/g, ' ') : text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Backoff for retry number `retry` (from 1): 0.5 s doubling to 8 s, up to a quarter shorter at random. */
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

// One `abort` listener per signal however many calls wait on it (a merchant's one signal for many
// calls would pass Node's limit of 10 listeners and warn), removed when the last of them is done.
const waiting = new WeakMap<AbortSignal, { callbacks: Set<() => void>; listener: () => void }>();

/** Calls `callback` once when `signal` fires (check `aborted` first); returns its unregister function. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let entry = waiting.get(signal);
  if (entry === undefined) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      waiting.delete(signal);
      for (const each of callbacks) each();
      callbacks.clear();
    };
    waiting.set(signal, (entry = { callbacks, listener }));
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = entry;
  const once = (): void => callback(); // the same function registered twice fires twice
  callbacks.add(once);
  return () => {
    if (!callbacks.delete(once) || callbacks.size > 0) return;
    signal.removeEventListener('abort', listener);
    waiting.delete(signal);
  };
}

/** What follows an attempt: a wait (ms) before the next, or the end, with a note when it ends early. */
export function delayBeforeRetry(
  result: AttemptResult,
  n: number,
  logger: Logger,
  limits: { maxRetryAfter: number; left: number },
): { wait: number } | { stop: string | undefined } {
  const retryable =
    result.kind === 'failure'
      ? (result.reason === 'timeout' || result.reason === 'network') &&
        result.code !== 'WALLET_REDIRECT_FOLLOWED'
      : result.kind === 'response' && isRetryableStatus(result.status);
  if (!retryable) return { stop: undefined };
  const left = Math.max(0, Math.round(limits.left));
  const asked = result.kind === 'response' ? parseRetryAfter(result.headers['retry-after']) : undefined;
  if (asked !== undefined) {
    const seconds = `${Math.round(asked / 1000)} s`;
    const why =
      asked > limits.maxRetryAfter
        ? `longer than maxRetryAfter (${limits.maxRetryAfter} ms)`
        : asked >= left
          ? `past the call's totalTimeout (${left} ms left)`
          : undefined;
    if (why === undefined) return { wait: asked };
    // Retrying sooner than the service asked would only be refused again; let the caller decide.
    const note = `The service asked to wait ${seconds} (Retry-After), ${why}: not retried.`;
    logger.log('warn', note);
    return { stop: note };
  }
  const wait = backoffDelay(n);
  return wait < left
    ? { wait }
    : { stop: `No time was left in the call's totalTimeout for another attempt.` };
}

const codes = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/));
// Codes that prove nothing was written: no name, no connection or TLS handshake, no mock, a proxy's refusal.
const NOT_REACHED = codes(`ENOTFOUND EAI_AGAIN EAI_FAIL EAI_NODATA EAI_NONAME ECONNREFUSED EHOSTUNREACH
  ENETUNREACH EADDRNOTAVAIL UND_ERR_CONNECT_TIMEOUT UND_MOCK_ERR_MOCK_NOT_MATCHED WALLET_PROXY_REFUSED`);
const TLS_HANDSHAKE = /^(ERR_SSL_|ERR_TLS_)|CERT|SELF_SIGNED/;
// The HTTP layer refused the request before sending anything.
const REFUSED_LOCALLY = codes(`UND_ERR_INVALID_ARG UND_ERR_NOT_SUPPORTED UND_ERR_CLOSED NotCapable
  ERR_INVALID_ARG_TYPE ERR_INVALID_ARG_VALUE ERR_INVALID_CHAR ERR_INVALID_HTTP_TOKEN`);
const TIMEOUTS = codes('UND_ERR_CONNECT_TIMEOUT UND_ERR_HEADERS_TIMEOUT UND_ERR_BODY_TIMEOUT');

/** The first value `read` finds along a cause chain: five links, none past a throwing getter. @internal */
export function firstAlongCauses<T>(cause: unknown, read: (link: object) => T | undefined): T | undefined {
  let current = cause;
  try {
    for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
      const found = read(current);
      if (found !== undefined) return found;
      current = (current as { cause?: unknown }).cause;
    }
  } catch {
    // Nothing more can be read.
  }
  return undefined;
}

/** The first error code along a cause chain. */
function errorCode(cause: unknown): string | undefined {
  return firstAlongCauses(cause, (link) => {
    const { code, errors, name } = link as { code?: unknown; errors?: unknown; name?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    // Deno's permission error (no --allow-net) has no code: its class name is the code.
    if (name === 'NotCapable' || name === 'PermissionDenied') return 'NotCapable';
    const first = Array.isArray(errors) ? (errors[0] as { code?: unknown } | undefined) : undefined;
    return typeof first?.code === 'string' ? first.code : undefined;
  });
}

/** A request the HTTP layer refused before sending anything. */
export function refusal(cause: unknown, code: string | undefined = errorCode(cause)): AttemptResult {
  return { kind: 'failure', reason: 'refused', reached: false, code, cause };
}

/** A failure after the request may have been written: its outcome is unknown. */
export function cutOff(cause: unknown): AttemptResult {
  return { kind: 'failure', reason: 'network', reached: true, code: errorCode(cause), cause };
}

/** A response a fetch function got by following a redirect (a wrapper dropped `init.redirect`) is not the answer. */
export function unredirected(response: Response): Response {
  if (response.redirected !== true) return response;
  const error = new Error('The fetch function followed a redirect: the request went on to another address');
  throw Object.assign(error, { code: 'WALLET_REDIRECT_FOLLOWED' });
}

/** What a deadline ends: the attempt under way. */
export interface Stoppable {
  stop(reason: unknown): void;
}

const NOBODY: Stoppable = { stop: () => undefined };

/** An attempt's deadline: a timer over the whole exchange, and the caller's signal; either stops `target`. */
export class Deadline {
  readonly #caller: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #stopListening: (() => void) | undefined;
  #target: Stoppable;
  #expired = false;

  constructor(timeout: number, caller: AbortSignal | undefined, target: Stoppable) {
    this.#caller = caller;
    this.#target = target;
    this.#timer = setTimeout(() => {
      this.#expired = true;
      const error = new Error(`No complete response within ${timeout} ms`);
      this.#target.stop(Object.assign(error, { name: 'TimeoutError' }));
    }, timeout);
    // Through #target, which done() lets go: the signal may outlive the attempt by far.
    if (caller) this.#stopListening = onAbort(caller, () => this.#target.stop(caller.reason));
  }

  /** Classifies why the attempt failed. */
  failure(cause: unknown): AttemptResult {
    const code = errorCode(cause);
    if (this.#caller?.aborted)
      return { kind: 'failure', reason: 'aborted', reached: true, code, cause: this.#caller.reason };
    if (this.#expired || (code !== undefined && TIMEOUTS.has(code)))
      return { kind: 'failure', reason: 'timeout', reached: code !== 'UND_ERR_CONNECT_TIMEOUT', code, cause };
    if (code !== undefined && REFUSED_LOCALLY.has(code)) return refusal(cause, code);
    // Without a code (a runtime's bare "fetch failed") nothing proves the request stayed here.
    const reached = code === undefined || !(NOT_REACHED.has(code) || TLS_HANDSHAKE.test(code));
    return { kind: 'failure', reason: 'network', reached, code, cause };
  }

  /** Clears the timer and the listener. */
  done(): void {
    clearTimeout(this.#timer);
    this.#target = NOBODY;
    this.#stopListening?.();
  }
}

/** Starts an attempt's deadline (see {@link Deadline}). */
export function startDeadline(timeout: number, caller: AbortSignal | undefined, target: Stoppable): Deadline {
  return new Deadline(timeout, caller, target);
}
