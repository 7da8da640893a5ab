/**
 * Runs one async task per input item, at most `concurrency` at a time, and yields the results in
 * input order. Input is pulled lazily, never more than `window` items ahead of the result being
 * yielded, so memory stays flat however long the input is: a slow head row holds back at most
 * `window` finished results, never the whole run.
 */
import { sleep } from '../core/retry.js';

/** Any iterable or async iterable, as `verifyMany` and `reconcile` take. */
export type AnyIterable<T> = Iterable<T> | AsyncIterable<T>;

/** A counting semaphore whose waiters are served in arrival order (that is, input order). */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  constructor(size: number) {
    this.#free = size;
  }
  async take(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

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
 * Yields `task(item)` for each input item, in input order. `task` must not throw: each item's
 * failure belongs on its own result. Breaking out of the loop stops pulling input and closes it.
 * @internal
 */
export async function* orderedPool<T, R>(
  input: AnyIterable<T>,
  task: (item: T) => Promise<R>,
  options: PoolOptions,
): AsyncGenerator<R, void, undefined> {
  const iterator = iteratorOf(input);
  const slots = new Slots(options.concurrency);
  const queue: Promise<R>[] = [];
  let ended = false;
  const run = async (item: T): Promise<R> => {
    await slots.take();
    try {
      return await task(item);
    } finally {
      slots.give();
    }
  };
  const pull = async (): Promise<void> => {
    while (!ended && queue.length < options.window && options.signal?.aborted !== true) {
      const next = await iterator.next();
      if (next.done === true) ended = true;
      else queue.push(run(next.value));
    }
  };
  try {
    await pull();
    while (queue.length > 0) {
      const head = queue.shift() as Promise<R>;
      // The window refills before waiting on the head, so free slots never idle behind it.
      await pull();
      yield await head;
    }
  } finally {
    if (!ended) await iterator.return?.();
    // Results nobody will read: let them settle quietly, never as unhandled rejections.
    for (const pending of queue) pending.catch(() => undefined);
  }
}
