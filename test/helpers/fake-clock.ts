/**
 * Time in tests without a wall clock: every timer the SDK (and the test's mock service) sets runs
 * on vitest's fake clock, so "ends at 200 ms" is checked as exactly that, on a loaded machine too.
 * Sockets are not driven by this clock: pair it with a service that needs no socket
 * (`mockService`, a scripted dispatcher, a `fetch` function).
 */
import { vi } from 'vitest';

/** Fakes the timers and clocks the SDK reads; call `vi.useRealTimers()` in `afterEach`. */
export function fakeClock(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });
}

/** How a tracked call stands: settled or not, with what, and at which fake millisecond. */
export interface Tracked<T> {
  settled: boolean;
  value: T | undefined;
  error: unknown;
  /** `performance.now()` of the fake clock when it settled. */
  at: number | undefined;
}

/**
 * Follows a call on the fake clock: `after(ms)` moves the clock by `ms` (running every timer and
 * promise due on the way) and tells how the call stands.
 */
export function track<T>(call: Promise<T>): (ms: number) => Promise<Tracked<T>> {
  const state: Tracked<T> = { settled: false, value: undefined, error: undefined, at: undefined };
  call.then(
    (value) => Object.assign(state, { settled: true, value, at: performance.now() }),
    (error: unknown) => Object.assign(state, { settled: true, error, at: performance.now() }),
  );
  return async (ms) => {
    await vi.advanceTimersByTimeAsync(ms);
    return state;
  };
}
