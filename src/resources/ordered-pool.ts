/**
 * Runs one async task per input item, at most `concurrency` at a time, and yields the results in
 * input order. An item is read only when a slot is free to start it, and never more than `window`
 * items ahead of the result being yielded, so memory stays flat however long the input is: a slow
 * head row holds back at most `window` finished results, never the whole run.
 */
import { sleep } from '../core/retry.js';

/** Any iterable or async iterable, as `verifyMany` and `reconcile` take. */
export type AnyIterable<T> = Iterable<T> | AsyncIterable<T>;

/**
 * One pause shared by every task of a run: a 429 or a `Retry-After` seen by one task holds all of
 * them, so a run does not keep hitting a service that asked it to wait.
 * @internal
 */
export class SharedPause {
  #until = 0;
  /** Holds every task for `ms` from now (a longer pause already under way is kept). */
  pause(ms: number): void {
    this.#until = Math.max(this.#until, performance.now() + ms);
  }
  /** True while a pause is under way (checked first, so the common case costs no promise). */
  get active(): boolean {
    return this.#until > performance.now();
  }
  /** Resolves once no pause is under way; rejects when the signal fires. */
  async wait(signal: AbortSignal | undefined): Promise<void> {
    for (let left = this.#until - performance.now(); left > 0; left = this.#until - performance.now()) {
      await sleep(left, signal);
    }
  }
}

function iteratorOf<T>(input: AnyIterable<T>): AsyncIterator<T> | Iterator<T> {
  const asyncIterator = (input as AsyncIterable<T>)[Symbol.asyncIterator];
  if (typeof asyncIterator === 'function') return asyncIterator.call(input);
  return (input as Iterable<T>)[Symbol.iterator]();
}

/** Options of {@link orderedPool}. @internal */
export interface PoolOptions {
  concurrency: number;
  window: number;
  /** Stops pulling input; tasks under way see it through their own signal. */
  signal?: AbortSignal | undefined;
}

/**
 * Yields `task(item)` for each input item, in input order. An item is read from the input only
 * when a slot is free to start it, so when the input ends (or the caller stops feeding it) only
 * the tasks under way finish. `task` should not throw: each item's failure belongs on its own
 * result (a throw ends the loop at that item). Breaking out of the loop closes the input.
 * @internal
 */
export async function* orderedPool<T, R>(
  input: AnyIterable<T>,
  task: (item: T) => Promise<R>,
  options: PoolOptions,
): AsyncGenerator<R, void, undefined> {
  const iterator = iteratorOf(input);
  // Finished results waiting for the rows before them: at most `window` rows ahead of the head.
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
  const fill = async (): Promise<void> => {
    while (!ended && running < options.concurrency && pulled - emitted < options.window) {
      if (options.signal?.aborted === true) return;
      const next = await iterator.next();
      if (next.done === true) ended = true;
      else start(next.value, pulled++);
    }
  };
  try {
    for (;;) {
      await fill();
      const head = finished.get(emitted);
      if (head !== undefined) {
        finished.delete(emitted);
        emitted++;
        if (!head.ok) throw head.error;
        yield head.value;
        continue;
      }
      if (running === 0 && (ended || options.signal?.aborted === true)) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    if (!ended) await iterator.return?.();
  }
}
