// `charges.waitForOutcome`, loaded on first use: polls verify (its retries underneath) at a growing
// interval, honouring `Retry-After`, under one deadline for the whole wait.
import { MAX_TIMER_MS, REQUEST_OPTION_RULES, checkOptions, type OptionRule } from '../core/options.js';
import { parseRetryAfter, sleep, startDeadline } from '../core/retry.js';
import { ValidationError, WalletError, named, type WalletErrorOptions } from '../errors/base.js';
import { isApiError, RequestAbortedError } from '../errors/call.js';
import { quoted } from '../internal/values.js';
import type { Transaction } from '../types.js';
import { isTransient, PENDING, type VerifyFn } from './verify-many.js';

/**
 * `charges.waitForOutcome` ran out of time while the charge was still pending. The charge goes on:
 * the customer may still authorize it until its prompt expires, so keep your webhook, or verify
 * again before giving up on the order. `endpoint` is the verify call polled, `attempts` the polls.
 *
 * @example
 * ```ts
 * try {
 *   const tx = await wallet.charges.waitForOutcome('order_1042', { timeout: 60_000 });
 *   if (tx.status === 'SUCCESS') await fulfil(tx.reference, tx.amount);
 * } catch (error) {
 *   if (error instanceof WaitTimeoutError) console.log('still', error.transaction?.status);
 *   else throw error;
 * }
 * ```
 */
export class WaitTimeoutError extends WalletError {
  /** The last transaction seen, still pending; undefined when no poll succeeded. */
  readonly transaction: Transaction | undefined;
  /**
   * @param message - for a person. @param transaction - the last one seen.
   * @param options - the last poll's error as `cause`; the polled call as `call`.
   */
  constructor(message: string, transaction: Transaction | undefined, options?: WalletErrorOptions) {
    super(message, undefined, options);
    this.transaction = transaction;
  }
}

named({ WaitTimeoutError });

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

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const MIN_POLL_INTERVAL_MS = 100;
const MAX_POLL_INTERVAL_MS = 5_000;
/** The longest a poll asks to be held for (`Prefer: wait`), s: well below the attempt timeout. */
const PREFER_WAIT_S = 5;
/** Past `expiresAt`, for the service to record the expiry and for clocks that disagree a little. */
const EXPIRY_GRACE_MS = 5_000;

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

// The verify call polled, as errors name it; a lone surrogate (which verify refuses) gets the template.
function verifyEndpoint(reference: unknown): string {
  return typeof reference === 'string' && !/\p{Surrogate}/u.test(reference)
    ? `GET /v1/charges/verify/${encodeURIComponent(reference)}`
    : 'GET /v1/charges/verify/{reference}';
}

function defaultTimeout(expiry: number | undefined): number {
  if (expiry === undefined) return DEFAULT_TIMEOUT_MS;
  return Math.min(Math.max(expiry - Date.now(), 0) + EXPIRY_GRACE_MS, MAX_TIMER_MS);
}

/** Polls `verify` until the charge is no longer pending; an error retrying cannot fix rejects. @internal */
export async function waitForOutcome(
  verify: VerifyFn,
  expiry: number | undefined,
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
  const timeout = options?.timeout ?? defaultTimeout(expiry);
  const deadline = performance.now() + timeout;

  // One signal ends the poll under way or the pause: the caller's abort or the deadline, first wins.
  const stop = new AbortController();
  let byCaller = false; // decided when the wait stops: a caller's abort during a poll's teardown is late
  const timer = startDeadline(timeout, signal, {
    stop: (reason) => {
      if (!stop.signal.aborted) byCaller = signal?.aborted === true;
      stop.abort(reason);
    },
  });

  let polls = 0;
  let last: Transaction | undefined;
  let lastError: unknown;
  const stopped = (): Error => {
    const call = { endpoint, attempts: polls };
    if (byCaller) return new RequestAbortedError({ ...call, cause: signal?.reason });
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
        // Prefer: wait (RFC 7240): a server that knows when the outcome comes may hold the answer till then.
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
      // A pause past the deadline waits for the deadline's own abort: no second timer racing it.
      const pause = wait >= deadline - performance.now() ? MAX_TIMER_MS : wait;
      await sleep(pause, stop.signal).catch(() => {
        throw stopped();
      });
    }
  } finally {
    timer.done();
  }
}
