/** The sandbox's time: the real clock, or a manual one that stands still until a test moves it. */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

import { SandboxError } from './records.js';

/** How the sandbox's time passes: with the machine's (`'real'`), or only by `advance()` (`'manual'`). */
export type SandboxClock = 'real' | 'manual';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Manual-clock settlement: 10:00 Lagos time (UTC+1) the day after the Lagos day of payment. @internal */
export function settlementTime(paidAt: string): string {
  const lagosDay = Math.floor((Date.parse(paidAt) + HOUR_MS) / DAY_MS);
  return new Date((lagosDay + 1) * DAY_MS + 9 * HOUR_MS).toISOString();
}

/** The sandbox's clock, and the changes held polls wait for. @internal */
export class Clock {
  readonly manual: boolean;
  readonly #source: () => Date;
  readonly #start: number;
  #at: number;
  #wake = new AbortController();
  #stop = new AbortController();

  constructor(mode: SandboxClock, source: () => Date) {
    this.manual = mode === 'manual';
    this.#source = source;
    this.#start = this.manual ? source().getTime() : 0;
    this.#at = this.#start;
  }

  now(): Date {
    return this.manual ? new Date(this.#at) : this.#source();
  }

  /** Moves the manual clock forward; a 409 on the real clock, whose time is not the sandbox's to move. */
  advance(ms: number): Date {
    if (!this.manual)
      throw new SandboxError(
        409,
        "The clock follows real time: create the sandbox with { clock: 'manual' } to move it.",
      );
    this.#at += ms;
    this.changed();
    return this.now();
  }

  /** The manual clock back to where it started (a reset). */
  rewind(): void {
    this.#at = this.#start;
    this.changed();
  }

  /** Something a held poll may be waiting for happened: each one looks again. */
  changed(): void {
    this.#wake.abort();
    this.#wake = new AbortController();
  }

  /** Waits `ms` of real time; `false` when the sandbox closed or was reset first, so the caller must not act. */
  pause(ms: number): Promise<boolean> {
    setMaxListeners(0, this.#stop.signal); // one listener per pause under way: past 10, Node warns of a leak
    return sleep(ms, true, { signal: this.#stop.signal }).catch(() => false);
  }

  /** Ends every hold and pause under way (the sandbox is closing or reset); later ones work again. */
  release(): void {
    this.#stop.abort();
    this.#stop = new AbortController();
  }

  /** Resolves at the next change; `false` when `signal` aborted or the sandbox closed instead. */
  async nextChange(signal: AbortSignal): Promise<boolean> {
    const stop = AbortSignal.any([this.#stop.signal, signal]);
    const ended = AbortSignal.any([this.#wake.signal, stop]);
    if (!ended.aborted)
      await new Promise((resolve) => ended.addEventListener('abort', resolve, { once: true }));
    return !stop.aborted;
  }
}
