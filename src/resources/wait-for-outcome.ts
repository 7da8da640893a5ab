/**
 * `charges.waitForOutcome`: polls verify until the customer has answered, for checkout pages and
 * merchants without a webhook endpoint. Each poll is an ordinary verify call, so the transport's
 * retries (429, 5xx, lost connections) happen underneath; this loop adds its own growing interval
 * on top, honours `Retry-After`, and keeps one deadline for the whole wait. By default it waits as
 * long as the customer can still answer: `DispatchMemory` remembers when the prompts this client
 * dispatched expire (only successful dispatches, only the most recent few thousand references, in
 * the one bounded key memory), so a long-running server's memory stays flat.
 */
import { quoted } from '../internal/words.js';
import type { APIPromise } from '../core/transport.js';
import { MAX_TIMER_MS, checkOptions, type OptionRule } from '../core/options.js';
import { REQUEST_OPTION_RULES } from '../core/options.js';
import { Recent } from '../core/idempotency.js';
import { isRetryableStatus, onAbort, parseRetryAfter, sleep } from '../core/retry.js';
import type { RequestOptions } from '../core/transport.js';
import {
  isApiError,
  isConnectionError,
  RequestAbortedError,
  ValidationError,
  WaitTimeoutError,
} from '../errors.js';
import type { Transaction } from '../types.js';

/** How many references are remembered before the reference dispatched longest ago is forgotten. */
export const DISPATCH_MEMORY_SIZE = 5_000;

/** A bounded map from reference to the expiry (epoch ms) of this client's last prompt for it. */
export class DispatchMemory {
  readonly #expiries: Recent<number>;

  /** @param size - how many references to keep. */
  constructor(size: number = DISPATCH_MEMORY_SIZE) {
    this.#expiries = new Recent(size);
  }

  /**
   * Records a successful dispatch; an `expiresAt` that is not a date is ignored. With the
   * response's `Date` header, the expiry is moved onto this machine's clock, so a server clock
   * that runs ahead or behind does not end the wait early or late.
   */
  remember(reference: string, expiresAt: string, serverDate?: string): void {
    const expires = Date.parse(expiresAt);
    if (Number.isNaN(expires)) return;
    const served = serverDate === undefined ? Number.NaN : this.#dateOf(serverDate);
    const at = Number.isNaN(served) ? expires : Date.now() + (expires - served);
    this.#expiries.set(reference, at);
  }

  // The service's Date header changes once a second, so its last reading is kept.
  #lastDate: string | undefined;
  #lastDateMs = Number.NaN;
  #dateOf(header: string): number {
    if (header !== this.#lastDate) {
      this.#lastDateMs = Date.parse(header);
      this.#lastDate = header;
    }
    return this.#lastDateMs;
  }

  /** The expiry (epoch ms) of the last prompt this client dispatched for `reference`. */
  expiryOf(reference: string): number | undefined {
    return this.#expiries.get(reference);
  }

  /** How many references are remembered (see `Recent.size`). */
  get size(): number {
    return this.#expiries.size;
  }
}

/** Options of {@link Charges.waitForOutcome}. */
export interface WaitForOutcomeOptions {
  /**
   * Milliseconds to wait in all before rejecting with `WaitTimeoutError`.
   * @default 5 s past the `expiresAt` of this client's last dispatch of the reference, else 120000
   */
  timeout?: number;
  /**
   * Stops the wait at once, between polls or during one, with `RequestAbortedError`.
   * @default undefined
   */
  signal?: AbortSignal;
  /**
   * Milliseconds before the second poll. Later intervals grow by half each time, to at most
   * 5 s (or `pollInterval` itself, if larger), shortened at random by up to a fifth so that many
   * waiting pages do not poll in step. At least 100.
   * @default 1000
   */
  pollInterval?: number;
}

/** The statuses of a charge still waiting for its customer. */
const PENDING: ReadonlySet<string> = new Set(['PENDING_AUTHORIZATION', 'PENDING_SCAN']);
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const MIN_POLL_INTERVAL_MS = 100;
const MAX_POLL_INTERVAL_MS = 5_000;
/** The longest a poll asks to be held for (`Prefer: wait`), s: well below the attempt timeout. */
const PREFER_WAIT_S = 5;
/** Past `expiresAt`, for the service to record the expiry and for clocks that disagree a little. */
const EXPIRY_GRACE_MS = 5_000;

/** Verify, as the wait loop calls it: the resource's own method, not the client. */
export type VerifyFn = (reference: string, options: RequestOptions) => APIPromise<Transaction>;

// The call's own rules for the options it shares with every request, so both say the same.
const RULES: Readonly<Record<keyof WaitForOutcomeOptions, OptionRule>> = {
  timeout: REQUEST_OPTION_RULES.timeout!,
  signal: REQUEST_OPTION_RULES.signal!,
  pollInterval: (v) =>
    typeof v === 'number' && v >= MIN_POLL_INTERVAL_MS && v <= MAX_TIMER_MS
      ? undefined
      : `must be a number of milliseconds from ${MIN_POLL_INTERVAL_MS} to ${MAX_TIMER_MS}`,
};

/** The wait after poll number `poll` (1-based): growing by half, capped, jittered downwards. */
function pollDelay(poll: number, first: number): number {
  const cap = Math.max(first, MAX_POLL_INTERVAL_MS);
  const full = Math.min(first * 1.5 ** (poll - 1), cap);
  return Math.round(full * (1 - 0.2 * Math.random()));
}

/** A failed poll worth another (the transport already retried it): a 408, 429, 5xx or no answer. */
function isTransient(error: unknown): boolean {
  return isConnectionError(error) || (isApiError(error) && isRetryableStatus(error.status));
}

// The verify call polled, as errors name it; a reference verify would refuse is named by its template.
function verifyEndpoint(reference: unknown): string {
  try {
    if (typeof reference === 'string') return `GET /v1/charges/verify/${encodeURIComponent(reference)}`;
  } catch {
    // A lone surrogate: verify refuses it on the first poll.
  }
  return 'GET /v1/charges/verify/{reference}';
}

function defaultTimeout(expiry: number | undefined): number {
  if (expiry === undefined) return DEFAULT_TIMEOUT_MS;
  return Math.min(Math.max(expiry - Date.now(), 0) + EXPIRY_GRACE_MS, MAX_TIMER_MS);
}

/**
 * Polls `verify` until the charge leaves its pending states and returns that transaction, or
 * rejects with `WaitTimeoutError` (the last transaction seen attached) or `RequestAbortedError`.
 * Errors that retrying cannot fix (404, 401, a malformed response) reject at once.
 * @internal
 */
export async function waitForOutcome(
  verify: VerifyFn,
  dispatches: DispatchMemory,
  redact: (text: string) => string,
  reference: string,
  options?: WaitForOutcomeOptions,
): Promise<Transaction> {
  const issues = checkOptions(options, RULES, 'options', 'an option of waitForOutcome');
  if (issues.length > 0) throw new ValidationError('waitForOutcome options', issues, 'Nothing was sent.');
  const endpoint = redact(verifyEndpoint(reference));
  const signal = options?.signal;
  if (signal?.aborted) throw new RequestAbortedError({ endpoint, attempts: 0, cause: signal.reason });
  const first = options?.pollInterval ?? DEFAULT_POLL_INTERVAL_MS;
  const expiry = typeof reference === 'string' ? dispatches.expiryOf(reference) : undefined;
  const timeout = options?.timeout ?? defaultTimeout(expiry);
  const deadline = performance.now() + timeout;

  // One signal ends the poll under way or the pause: the caller's abort or the deadline, first wins.
  const stop = new AbortController();
  let timedOut = false;
  // Through the shared fan-out: many waits on one signal add one listener to it.
  const stopListening = signal ? onAbort(signal, () => stop.abort(signal.reason)) : undefined;
  const timer = setTimeout(() => {
    timedOut = !stop.signal.aborted;
    stop.abort();
  }, timeout);

  let polls = 0;
  let last: Transaction | undefined;
  let lastError: unknown;
  const stopped = (): Error => {
    const call = { endpoint, attempts: polls };
    if (!timedOut) return new RequestAbortedError({ ...call, cause: signal?.reason });
    const seen = last ? `it was last seen ${last.status}` : 'no poll got an answer';
    return new WaitTimeoutError(
      redact(`Charge ${quoted(reference)} had no outcome after ${timeout} ms (${polls} poll(s); ${seen}).`) +
        ' The customer may still answer until the prompt expires: keep your webhook, or verify it again later.',
      last,
      { call, cause: lastError },
    );
  };

  try {
    for (;;) {
      let retryAfter: number | undefined;
      polls++;
      try {
        // Prefer: wait (RFC 7240) lets a server that can tell when the outcome comes (the sandbox on
        // its manual clock) answer then instead of now; the service may ignore it.
        const holdS = Math.min(PREFER_WAIT_S, Math.ceil((deadline - performance.now()) / 1000));
        const headers = holdS > 0 ? { prefer: `wait=${holdS}` } : {};
        const { data, response } = await verify(reference, { signal: stop.signal, headers }).withResponse();
        [last, lastError] = [data, undefined];
        if (!PENDING.has(data.status)) return data;
        retryAfter = parseRetryAfter(response.headers['retry-after']);
      } catch (error) {
        if (stop.signal.aborted) throw stopped();
        if (!isTransient(error)) throw error;
        lastError = error;
        if (isApiError(error)) retryAfter = parseRetryAfter(error.headers['retry-after']);
      }
      const wait = Math.max(pollDelay(polls, first), retryAfter ?? 0);
      // A pause that reaches the deadline waits for the deadline itself: no poll the service asked
      // us not to make, and no race between two timers due at the same moment.
      const pause = wait >= deadline - performance.now() ? MAX_TIMER_MS : wait;
      await sleep(pause, stop.signal).catch(() => {
        throw stopped();
      });
    }
  } finally {
    clearTimeout(timer);
    stopListening?.();
  }
}
