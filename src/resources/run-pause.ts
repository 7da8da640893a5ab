// The pause the workers of one verifyMany or reconcile run share: a 429 or Retry-After seen by one
// holds them all until the time asked has passed; one longer than the run may wait ends the rows
// still to verify, unsent, so a run never keeps sending into a rate limit it cannot wait out.
import { onAbort } from '../core/retry.js';
import type { WalletError } from '../errors/base.js';
import { isApiError, RateLimitError, RequestAbortedError, type ResponseHeaders } from '../errors/call.js';
import { quoted } from '../internal/values.js';

const ENDPOINT = 'GET /v1/charges/verify/{reference}';
const LEFT = 'Not sent: the run was left by its caller.';

/** Until when (`performance.now()`) every worker of a run waits, and the workers waiting. @internal */
export interface RunPause {
  /** The end of the pause, a backoff after a 429 without `Retry-After` included. */
  until: number;
  /** The end of the time the service asked for with `Retry-After`: the part `maxWait` bounds. */
  asked: number;
  /** The answer that asked for it, for the error of a row that cannot wait so long. */
  answer:
    { readonly status: number; readonly message: string; readonly headers: ResponseHeaders } | undefined;
  /** Wakes the workers waiting, to look again at a pause that moved. */
  readonly waiting: Set<() => void>;
  /** The run's caller left it: nothing more is sent, and no worker holds a timer. */
  ended: boolean;
}

/** A run's pause, not under way. @internal */
export function newPause(): RunPause {
  return { until: 0, asked: 0, answer: undefined, waiting: new Set(), ended: false };
}

/** Ends the run's waits when its caller leaves the loop: a process is not held for a pause nobody reads. @internal */
export function endPause(pause: RunPause): void {
  pause.ended = true;
  for (const wake of [...pause.waiting]) wake();
}

/** Holds every worker `ms` from now; `asker` is the error answer whose `Retry-After` asked for it. @internal */
export function holdAll(pause: RunPause, ms: number, asker?: unknown): void {
  const end = performance.now() + ms;
  if (isApiError(asker) && end > pause.asked) {
    pause.asked = end;
    pause.answer = { status: asker.status, message: asker.message, headers: asker.headers };
  }
  if (end <= pause.until) return;
  pause.until = end;
  // A worker waiting out a short pause learns at once of a longer one it may not wait for.
  for (const wake of [...pause.waiting]) wake();
}

/**
 * Waits until the pause is over; or, when the service asked for longer than `limit` ms or the run
 * ended, returns at once the error of a row that made `attempts`. Rejects with the signal's reason
 * as soon as it fires. @internal
 */
export async function waitOut(
  pause: RunPause,
  limit: number,
  signal: AbortSignal | undefined,
  attempts: number,
): Promise<WalletError | undefined> {
  for (;;) {
    if (pause.ended) return new RequestAbortedError({ endpoint: ENDPOINT, attempts, message: LEFT });
    const now = performance.now();
    // A millisecond of slack: `now + ms - now` may exceed `ms` by a rounding error.
    if (pause.asked - now > limit + 1) return pausedTooLong(pause, pause.asked - now, limit, attempts);
    if (pause.until <= now) return undefined;
    await nap(pause, pause.until - now, signal);
  }
}

/** One worker's backoff of `ms`, cut short only when the run ends. @internal */
export async function rest(pause: RunPause, ms: number, signal: AbortSignal | undefined): Promise<void> {
  const end = performance.now() + ms;
  while (!pause.ended && performance.now() < end) await nap(pause, end - performance.now(), signal);
}

// Sleeps `ms`, or less when the pause moves or ends.
function nap(pause: RunPause, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason as Error);
    const stop = (): void => {
      clearTimeout(timer);
      pause.waiting.delete(wake);
      unlisten?.();
    };
    const wake = (): void => {
      stop();
      resolve();
    };
    const timer = setTimeout(wake, ms);
    pause.waiting.add(wake);
    // Neither fires before this line: the signal was checked above, the others wait for a timer or a worker.
    const unlisten = signal
      ? onAbort(signal, () => {
          stop();
          reject(signal.reason as Error);
        })
      : undefined;
  });
}

// The error of a row the run did not verify: what the service asked, until when, how to go on.
function pausedTooLong(pause: RunPause, left: number, maxWait: number, attempts: number): RateLimitError {
  const until = new Date(Date.now() + left).toISOString();
  const seconds = Math.ceil(left / 1000);
  const what =
    attempts === 0 ? 'Not sent' : `Not verified after ${attempts} attempt${attempts > 1 ? 's' : ''}`;
  const said = pause.answer === undefined ? '' : ` (${quoted(pause.answer.message)})`;
  const message =
    `${what}: the service${said} asked this run with Retry-After to wait until ${until}, ${seconds} s from now, ` +
    `longer than this run's maxWait of ${maxWait / 1000} s. Verify it again after that, or allow a longer maxWait.`;
  const init = {
    status: pause.answer?.status ?? 429,
    message,
    body: undefined,
    headers: pause.answer?.headers ?? {},
    idempotencyKey: undefined,
    endpoint: ENDPOINT,
    attempts,
  };
  return new RateLimitError(init, seconds);
}
