/**
 * `charges.verifyMany`: verify a long list of references, politely. Each verify is sent with the
 * transport's own retries off, so this loop sees every 429 and `Retry-After` and can pause every
 * worker at once; it retries what a verify retries (lost connections, timeouts, 408, 429, 5xx)
 * with the same backoff, then puts the error on its row and goes on.
 */
import type { APIPromise } from '../core/transport.js';
import { checkOptions, wholeNumber, type OptionRule } from '../core/options.js';
import { REQUEST_OPTION_RULES } from '../core/options.js';
import {
  backoffDelay,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  sleep,
} from '../core/retry.js';
import type { RequestOptions } from '../core/transport.js';
import { isApiError, isConnectionError, RequestAbortedError, ValidationError } from '../errors.js';
import type { WalletError } from '../errors.js';
import type { Transaction } from '../types.js';
import { orderedPool, SharedPause, type AnyIterable } from './ordered-pool.js';

/** Options of {@link Charges.verifyMany}. */
export interface VerifyManyOptions {
  /**
   * How many verifies may be in flight at once. Keep it modest: the service shares its rate limit
   * with your checkout traffic.
   * @default 8
   */
  concurrency?: number;
  /**
   * Stops the run: no new verify starts, those under way are aborted, and the loop rejects with
   * `RequestAbortedError`. Results already yielded stand.
   * @default undefined
   */
  signal?: AbortSignal;
  /**
   * Retries of each reference after a lost connection, a timeout, a 408, 429 or 5xx (as a verify
   * retries), before its error is reported on its row.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The longest the run waits out a 429 or `Retry-After` for one reference, in milliseconds: every
   * worker pauses for the time the service asked, and such waits do not use up `maxRetries`. A
   * longer wait puts the error on the row instead.
   * @default 20_000 (what a single verify waits out)
   */
  maxWait?: number;
}

/** One reference's answer: its transaction, or the error that kept it from being verified. */
export type VerifyResult = VerifiedResult | FailedResult;

/** A reference the service answered for. */
export interface VerifiedResult {
  /** The reference, as given. */
  readonly reference: string;
  /** What the service holds for it. */
  readonly transaction: Transaction;
  /** Never set on a verified result. */
  readonly error?: undefined;
}

/** A reference that could not be verified (after retries), or that the service does not know (404). */
export interface FailedResult {
  /** The reference, as given. */
  readonly reference: string;
  /** Never set on a failed result. */
  readonly transaction?: undefined;
  /** Why: a `NotFoundError` for an unknown reference, a `ValidationError` for a malformed one, … */
  readonly error: WalletError;
}

/** Verify as the loop calls it. @internal */
export type VerifyFn = (reference: string, options: RequestOptions) => APIPromise<Transaction>;

const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 256;
const DEFAULT_MAX_RETRIES = 2;

/** The option rules `reconcile` shares. @internal */
export const VERIFY_MANY_RULES: Readonly<Record<keyof VerifyManyOptions, OptionRule>> = {
  concurrency: wholeNumber(1, MAX_CONCURRENCY),
  signal: REQUEST_OPTION_RULES.signal!,
  maxRetries: wholeNumber(0, 10),
  maxWait: wholeNumber(0, 24 * 60 * 60 * 1000),
};

/** The settled options of one run. @internal */
export interface ManyRun {
  readonly concurrency: number;
  readonly maxRetries: number;
  readonly maxWait: number;
  readonly signal: AbortSignal | undefined;
  readonly pause: SharedPause;
}

/** Checks the options (throwing every problem at once) and settles the defaults. @internal */
export function settleRun(
  options: VerifyManyOptions | undefined,
  rules: Readonly<Record<string, OptionRule>>,
  what: string,
): ManyRun {
  const issues = checkOptions(options, rules, 'options', `an option of ${what}`);
  if (issues.length > 0) throw new ValidationError(`${what} options`, issues, 'Nothing was sent.');
  return {
    concurrency: options?.concurrency ?? DEFAULT_CONCURRENCY,
    maxRetries: options?.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxWait: options?.maxWait ?? MAX_RETRY_AFTER_MS,
    signal: options?.signal,
    pause: new SharedPause(),
  };
}

/** How far input is read ahead of the oldest unfinished row: bounded, so memory is too. */
export function windowFor(concurrency: number): number {
  return Math.max(256, concurrency * 64);
}

function retryAfterOf(error: unknown): number | undefined {
  return isApiError(error) ? parseRetryAfter(error.headers['retry-after']) : undefined;
}

/**
 * Each attempt is a call of its own (so this loop sees every 429 and shares its pause): the error
 * that ends the row names every attempt the run made, not only its last call's one.
 */
function allAttempts(error: WalletError, attempts: number): WalletError {
  if (attempts <= 1 || typeof error.attempts !== 'number' || error.attempts >= attempts) return error;
  const message = error.message.replace(/\bafter \d+ attempts?\b/, `after ${attempts} attempts`);
  Object.defineProperty(error, 'attempts', { value: attempts, enumerable: true, configurable: true });
  Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true });
  return error;
}

/**
 * Verifies one reference with the run's retries and shared pause. Never throws: an error that
 * outlasts the retries is returned for its row.
 * @internal
 */
export async function verifyWithRetries(
  verify: VerifyFn,
  reference: string,
  run: ManyRun,
): Promise<VerifyResult> {
  let waited = 0;
  let attempts = 0;
  for (let retry = 0; ; retry++) {
    try {
      if (run.pause.active) await run.pause.wait(run.signal);
      const options: RequestOptions = { maxRetries: 0 };
      if (run.signal) options.signal = run.signal;
      attempts++;
      return { reference, transaction: await verify(reference, options) };
    } catch (error) {
      const walletError = allAttempts(error as WalletError, attempts);
      const retryable = isConnectionError(error) || (isApiError(error) && isRetryableStatus(error.status));
      const retryAfter = retryAfterOf(error);
      const rateLimited = isApiError(error) && error.status === 429;
      // The service said when to come back: that wait is its pace, not a failed attempt of the row.
      const told = retryAfter !== undefined && retryAfter > 0;
      if (run.signal?.aborted === true || !retryable) return { reference, error: walletError };
      if (told ? waited + retryAfter > run.maxWait : retry >= run.maxRetries)
        return { reference, error: walletError };
      // As a verify waits: what the service asked for, else the backoff.
      const delay = retryAfter ?? backoffDelay(retry + 1);
      if (told) {
        waited += delay;
        retry--;
      }
      // The service asked the client to slow down, not this one request: every worker waits.
      if (rateLimited || retryAfter !== undefined) run.pause.pause(delay);
      else await sleep(delay, run.signal).catch(() => undefined);
    }
  }
}

/** True once the run's signal fired (a function, so TypeScript does not keep a stale narrowing). @internal */
export function stopped(run: ManyRun): boolean {
  return run.signal?.aborted === true;
}

/** The abort error of a run stopped by its signal. @internal */
export function runAborted(signal: AbortSignal | undefined): RequestAbortedError {
  return new RequestAbortedError({
    endpoint: 'GET /v1/charges/verify/{reference}',
    attempts: 0,
    message: 'The run was stopped by its signal; results already yielded stand, the rest were not reported.',
    cause: signal?.reason,
  });
}

/**
 * Yields one {@link VerifyResult} per reference, in input order.
 * @internal
 */
export async function* verifyMany(
  verify: VerifyFn,
  references: AnyIterable<string>,
  options?: VerifyManyOptions,
): AsyncGenerator<VerifyResult, void, undefined> {
  const run = settleRun(options, VERIFY_MANY_RULES, 'verifyMany');
  if (stopped(run)) throw runAborted(run.signal);
  const pool = orderedPool(references, (reference) => verifyWithRetries(verify, reference, run), {
    concurrency: run.concurrency,
    window: windowFor(run.concurrency),
    signal: run.signal,
  });
  for await (const result of pool) {
    // A row that failed because the run was stopped is not its row's truth: never yield it.
    if (stopped(run)) throw runAborted(run.signal);
    yield result;
  }
  if (stopped(run)) throw runAborted(run.signal);
}
