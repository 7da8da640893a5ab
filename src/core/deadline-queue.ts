/**
 * The attempts' deadlines of one way of sending, under one timer. A timer per attempt costs a
 * `setTimeout` and a `clearTimeout` on every call; here attempts with the same timeout wait in one
 * first-in, first-out lane (one started later ends later), and the one timer is set for the
 * earliest end among the lanes' oldest attempts. An attempt that finishes is only marked; the
 * timer, when it fires, passes over finished ones and is set again for the next attempt still
 * under way. Each deadline still ends exactly at its own start plus its timeout, as the clock
 * (`performance.now()` and `setTimeout`, a fake clock's in tests) reads it.
 */

/** One attempt's place in the queue. */
export interface Queued {
  /** When it ends, in `performance.now()` milliseconds. */
  readonly at: number;
  /** Set once it is finished or has expired. */
  gone: boolean;
  /** Ends the attempt: its deadline passed. */
  expire(): void;
}

// One timeout's attempts in the order they started; `start` is the index of the oldest kept.
interface Lane {
  items: Queued[];
  start: number;
  /** Finished attempts still in `items`. */
  gone: number;
}

const EMPTY: Queued = { at: 0, gone: true, expire: () => undefined };

// Finished attempts left behind an attempt that is still under way are swept out once they are
// this many and outnumber the live ones: memory stays proportional to the attempts under way.
const SWEEP_AT = 256;

/** The deadlines of one sender's attempts. */
export class DeadlineQueue {
  readonly #lanes = new Map<number, Lane>();
  #live = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #firing = false;
  readonly #fire = (): void => this.#expireDue();

  /** Attempts held, finished ones not yet swept out included: what the queue costs in memory. */
  get held(): number {
    let n = 0;
    for (const lane of this.#lanes.values()) n += lane.items.length - lane.start;
    return n;
  }

  /** Adds an attempt of `timeout` ms whose end is `entry.at`. */
  add(timeout: number, entry: Queued): void {
    let lane = this.#lanes.get(timeout);
    if (lane === undefined) this.#lanes.set(timeout, (lane = { items: [], start: 0, gone: 0 }));
    lane.items.push(entry);
    this.#live++;
    if (!this.#firing && entry.at < this.#timerAt) this.#arm(entry.at);
  }

  /** An attempt finished (answered, failed or aborted) before its deadline. */
  remove(timeout: number, entry: Queued): void {
    if (entry.gone) return;
    entry.gone = true;
    this.#live--;
    const lane = this.#lanes.get(timeout);
    if (lane !== undefined) lane.gone++;
    // The pass under way sweeps it.
    if (this.#firing || lane === undefined) return;
    if (this.#live === 0) {
      // Nothing under way: no timer keeps the process alive, and nothing is kept.
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#lanes.clear();
    } else if (lane.items[lane.start] === entry) this.#trim(timeout, lane);
    else if (lane.gone >= SWEEP_AT && lane.gone * 2 > lane.items.length - lane.start) {
      lane.items = lane.items.slice(lane.start).filter((item) => !item.gone);
      lane.start = 0;
      lane.gone = 0;
    }
  }

  // Drops the finished attempts at the front of a lane, and the lane once it is empty.
  #trim(timeout: number, lane: Lane): void {
    const { items } = lane;
    // Slots are emptied as the front moves: a finished attempt (its exchange, its body) must not
    // outlive the young generation of the heap because a queue still points at it.
    while (lane.start < items.length && items[lane.start]!.gone) {
      items[lane.start++] = EMPTY;
      lane.gone--;
    }
    if (lane.start === items.length) this.#lanes.delete(timeout);
    else if (lane.start >= SWEEP_AT && lane.start * 2 > items.length) {
      lane.items = items.slice(lane.start);
      lane.start = 0;
    }
  }

  // `now`: the time the delay counts from; after the timer fired, the time it fired for.
  #arm(at: number, now = performance.now()): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(this.#fire, Math.max(0, Math.ceil(at - now)));
  }

  #expireDue(): void {
    // The timer's clock says its time has come even where performance.now() is not faked with it
    // (a merchant's fake timers): what it was set for is due.
    const now = Math.max(performance.now(), this.#timerAt);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    this.#firing = true;
    let next = Number.POSITIVE_INFINITY;
    try {
      for (const [timeout, lane] of this.#lanes) {
        const { items } = lane;
        while (lane.start < items.length) {
          const entry = items[lane.start]!;
          if (entry.gone) lane.gone--;
          else if (entry.at <= now) {
            entry.gone = true;
            this.#live--;
            entry.expire();
          } else break;
          items[lane.start++] = EMPTY;
        }
        if (lane.start === items.length) this.#lanes.delete(timeout);
        else next = Math.min(next, items[lane.start]!.at);
      }
    } finally {
      this.#firing = false;
    }
    if (this.#live === 0) this.#lanes.clear();
    else if (next !== Number.POSITIVE_INFINITY) this.#arm(next, now);
  }
}
