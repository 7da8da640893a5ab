// `charges.verifyMany`, loaded on first use. Each verify goes without the transport's retries, so
// this loop sees every 429 and pauses every worker at once; a row's last error goes on its row.
import type { APIPromise, RequestOptions } from '../core/transport.js';
import { checkOptions, REQUEST_OPTION_RULES, wholeNumber, type OptionRule } from '../core/options.js';
import {
  backoffDelay,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  onAbort,
  parseRetryAfter,
} from '../core/retry.js';
import { endPause, holdAll, newPause, rest, waitOut, type RunPause } from './run-pause.js';
import { ValidationError, type WalletError } from '../errors/base.js';
import { isApiError, isConnectionError, RequestAbortedError } from '../errors/call.js';
import { describe } from '../internal/values.js';
import type { Transaction } from '../types.js';

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
   * worker pauses for the time the service asked, and such waits do not use up `maxRetries`. Past
   * it, no row is sent until that time: each ends with a `RateLimitError` saying why.
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

/** The statuses of a charge still waiting for its customer. @internal */
export const PENDING: ReadonlySet<string> = new Set(['PENDING_AUTHORIZATION', 'PENDING_SCAN']);

/** Verify as the loops call it: the resource's own method. @internal */
export type VerifyFn = (reference: string, options: RequestOptions) => APIPromise<Transaction>;

/** The option rules `reconcile` shares. @internal */
export const VERIFY_MANY_RULES: Readonly<Record<keyof VerifyManyOptions, OptionRule>> = {
  concurrency: wholeNumber(1, 256),
  signal: REQUEST_OPTION_RULES.signal!,
  maxRetries: REQUEST_OPTION_RULES.maxRetries!,
  maxWait: wholeNumber(0, 24 * 60 * 60 * 1000),
};

/** The settled options of one run. @internal */
export interface ManyRun {
  readonly concurrency: number;
  readonly maxRetries: number;
  readonly maxWait: number;
  readonly signal: AbortSignal | undefined;
  /** Until when every task waits: a 429 seen by one holds them all. */
  readonly pause: RunPause;
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
    concurrency: options?.concurrency ?? 8,
    maxRetries: options?.maxRetries ?? 2,
    maxWait: options?.maxWait ?? MAX_RETRY_AFTER_MS,
    signal: options?.signal,
    pause: newPause(),
  };
}

/** A failed verify worth another (the transport's retries aside): no answer, a 408, 429 or 5xx. @internal */
export function isTransient(error: unknown): boolean {
  return isConnectionError(error) || (isApiError(error) && isRetryableStatus(error.status));
}

// Each attempt is a call of its own: the error that ends the row names every attempt the run made.
function allAttempts(error: WalletError, attempts: number): WalletError {
  if (attempts <= 1 || typeof error.attempts !== 'number' || error.attempts >= attempts) return error;
  const message = error.message.replace(/\bafter \d+ attempts?\b/, `after ${attempts} attempts`);
  Object.defineProperty(error, 'attempts', { value: attempts, enumerable: true, configurable: true });
  Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true });
  return error;
}

/** Verifies one reference with the run's retries and pause; never throws (errors go on the row). @internal */
export async function verifyWithRetries(
  verify: VerifyFn,
  reference: string,
  run: ManyRun,
): Promise<VerifyResult> {
  let waited = 0;
  let attempts = 0;
  let retry = 0;
  for (;;) {
    try {
      const tooLong = await waitOut(run.pause, run.maxWait, run.signal, attempts);
      if (tooLong !== undefined) return { reference, error: tooLong };
      attempts++;
      return { reference, transaction: await verify(reference, { maxRetries: 0, signal: run.signal }) };
    } catch (error) {
      // A wait rejects with the signal's reason (null, another call's error): never this row's to rewrite.
      if (run.signal?.aborted === true) return { reference, error: error as WalletError };
      const walletError = allAttempts(error as WalletError, attempts);
      const retryAfter = isApiError(error) ? parseRetryAfter(error.headers['retry-after']) : undefined;
      const rateLimited = isApiError(error) && error.status === 429;
      // The service said when to come back: that wait is its pace, not a failed attempt of the row.
      const told = retryAfter !== undefined && retryAfter > 0;
      if (!isTransient(error)) return { reference, error: walletError };
      const delay = retryAfter ?? backoffDelay(retry + 1);
      // The service asked the client to slow down, not this one request: every worker waits.
      const paused = rateLimited || retryAfter !== undefined;
      if (paused) holdAll(run.pause, delay, told ? error : undefined);
      if (told ? waited + retryAfter > run.maxWait : retry >= run.maxRetries)
        return { reference, error: walletError };
      if (told) waited += delay;
      else retry++;
      if (!paused) await rest(run.pause, delay, run.signal).catch(() => undefined);
    }
  }
}

// A function, so TypeScript does not keep a stale narrowing of `aborted`.
function stopped(run: ManyRun): boolean {
  return run.signal?.aborted === true;
}

function throwIfStopped(run: ManyRun): void {
  if (!stopped(run)) return;
  throw new RequestAbortedError({
    endpoint: 'GET /v1/charges/verify/{reference}',
    attempts: 0,
    message: 'The run was stopped by its signal; results already yielded stand, the rest were not reported.',
    cause: run.signal?.reason,
  });
}

/** Yields one {@link VerifyResult} per reference, in input order. @internal */
export async function* verifyMany(
  verify: VerifyFn,
  references: AnyIterable<string>,
  options?: VerifyManyOptions,
): AsyncGenerator<VerifyResult, void, undefined> {
  const run = settleRun(options, VERIFY_MANY_RULES, 'verifyMany');
  checkInput(references, 'verifyMany references', 'a list of references (for one, pass [reference])');
  yield* orderedPool(references, (reference) => verifyWithRetries(verify, reference, run), run);
}

/** Any iterable or async iterable, as `verifyMany` and `reconcile` take. */
export type AnyIterable<T> = Iterable<T> | AsyncIterable<T>;

/**
 * Refuses an input that is no list before anything is sent: a lone string is iterable, and read
 * as one would verify each of its characters as a reference. @internal
 */
export function checkInput(input: unknown, what: string, expected: string): void {
  const it = input as Partial<Record<symbol, unknown>> | null | undefined;
  const iterable =
    typeof input === 'object' &&
    it != null &&
    (typeof it[Symbol.asyncIterator] === 'function' || typeof it[Symbol.iterator] === 'function');
  if (!iterable) {
    const issues = [{ path: '', message: `must be ${expected}, not ${describe(input)}` }];
    throw new ValidationError(what, issues, 'Nothing was sent.');
  }
}

// An input whose next() gives no `{ value, done }`: a slip of a hand-written iterator, named.
function noResult(next: unknown): ValidationError {
  const issues = [
    { path: '', message: `its next() gave ${describe(next)}, not an iterator result { value, done }` },
  ];
  return new ValidationError('input', issues, 'Results already yielded stand.');
}

function iteratorOf<T>(input: AnyIterable<T>): AsyncIterator<T> | Iterator<T> {
  const asyncIterator = (input as AsyncIterable<T>)[Symbol.asyncIterator];
  if (typeof asyncIterator === 'function') return asyncIterator.call(input);
  return (input as Iterable<T>)[Symbol.iterator]();
}

/** Yields `task(item)` per item in input order, `run.concurrency` at a time in a bounded window. @internal */
export async function* orderedPool<T, R>(
  input: AnyIterable<T>,
  task: (item: T) => Promise<R>,
  run: ManyRun,
): AsyncGenerator<R, void, undefined> {
  throwIfStopped(run);
  const iterator = iteratorOf(input);
  const window = Math.max(256, run.concurrency * 64);
  const finished = new Map<number, { ok: true; value: R } | { ok: false; error: unknown }>();
  let pulled = 0;
  let emitted = 0;
  let running = 0;
  let ended = false;
  let wake: (() => void) | undefined;
  const start = (item: T, index: number): void => {
    running++;
    task(item)
      .then(
        (value) => finished.set(index, { ok: true, value }),
        (error: unknown) => finished.set(index, { ok: false, error }),
      )
      .finally(() => {
        running--;
        wake?.();
      });
  };
  let pulling = false;
  let closed = false;
  let inputFailure: { error: unknown } | undefined;
  // Reads the input beside the loop: a stream slow to give its next row holds back no answer.
  const pull = (): void => {
    if (pulling || ended || closed || stopped(run)) return;
    if (running >= run.concurrency || pulled - emitted >= window) return;
    pulling = true;
    new Promise<IteratorResult<T>>((resolve) => resolve(iterator.next()))
      .then((next) => {
        if (typeof next !== 'object' || next === null) throw noResult(next);
        if (next.done === true) ended = true;
        else if (!closed) start(next.value, pulled++);
      })
      // Here, not on the loop's await: a failure of this chain would be unhandled, and the loop would read on.
      .catch((error: unknown) => (inputFailure = { error }))
      .finally(() => {
        pulling = false;
        wake?.();
      });
  };
  try {
    for (;;) {
      if (inputFailure !== undefined) throw inputFailure.error;
      pull();
      const head = finished.get(emitted);
      if (head !== undefined) {
        finished.delete(emitted);
        emitted++;
        // A row (or a task's failure) of a stopped run is not its row's truth: never yield it.
        throwIfStopped(run);
        if (!head.ok) throw head.error;
        yield head.value;
        continue;
      }
      if (running === 0 && (ended || stopped(run))) {
        throwIfStopped(run);
        return;
      }
      // The signal wakes the loop too, only while it waits: a run left at a yield is held by no signal.
      const unlisten = run.signal ? onAbort(run.signal, () => wake?.()) : undefined;
      await new Promise<void>((resolve) => (wake = resolve));
      unlisten?.();
      wake = undefined;
    }
  } finally {
    closed = true;
    endPause(run.pause);
    // A read under way holds the input's queue, so closing it then waits behind that read: not awaited.
    if (!ended && pulling) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    else if (!ended) await iterator.return?.();
  }
}
