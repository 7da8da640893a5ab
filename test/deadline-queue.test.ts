/**
 * The undici path's attempts share one timer: each deadline must still end its attempt at exactly
 * its start plus its timeout, never after the attempt finished, and leave no timer behind once
 * nothing is under way (a script's process must be free to exit).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineQueue, type Queued } from '../src/core/deadline-queue.js';
import { mulberry32 } from '../src/testing/endpoints/faults.js';
import { fakeClock } from './helpers/fake-clock.js';

afterEach(() => {
  vi.useRealTimers();
});

interface Entry extends Queued {
  timeout: number;
  expiredAt: number | undefined;
}

function entry(timeout: number): Entry {
  const e: Entry = {
    at: performance.now() + timeout,
    gone: false,
    timeout,
    expiredAt: undefined,
    expire: () => {
      e.expiredAt = performance.now();
    },
  };
  return e;
}

describe('the deadline queue (one timer for every attempt of a sender)', () => {
  it('ends each attempt at its own deadline, in any mix of timeouts, and only those still under way', async () => {
    fakeClock();
    const random = mulberry32(7);
    const queue = new DeadlineQueue();
    const all: Entry[] = [];
    const finished = new Set<Entry>();
    for (let step = 0; step < 3_000; step++) {
      const roll = random();
      if (roll < 0.45) {
        // Mostly one timeout, as a client's calls are; sometimes another, or one cut short.
        const timeout = random() < 0.8 ? 300 : random() < 0.5 ? 50 : 1 + Math.floor(random() * 400);
        const e = entry(timeout);
        queue.add(timeout, e);
        all.push(e);
      } else if (roll < 0.85) {
        const live = all.filter((e) => !e.gone);
        const e = live[Math.floor(random() * live.length)];
        if (e) {
          queue.remove(e.timeout, e);
          finished.add(e);
        }
      } else {
        await vi.advanceTimersByTimeAsync(Math.floor(random() * 40));
      }
    }
    await vi.advanceTimersByTimeAsync(1_000);
    for (const e of all) {
      if (finished.has(e)) expect(e.expiredAt).toBeUndefined();
      else expect(e.expiredAt).toBe(e.at);
    }
    expect(all.filter((e) => e.expiredAt !== undefined).length).toBeGreaterThan(100);
    expect(finished.size).toBeGreaterThan(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends attempts on time under fake timers that leave performance.now() alone', async () => {
    // Jest's or vitest's fake timers, as a merchant may configure them for their own tests.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const queue = new DeadlineQueue();
    const first = entry(200);
    const second = entry(200);
    queue.add(200, first);
    queue.add(200, second);
    await vi.advanceTimersByTimeAsync(199);
    expect(first.expiredAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(first.expiredAt).toBeDefined();
    await vi.advanceTimersByTimeAsync(5);
    expect(second.expiredAt).toBeDefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps no timer once every attempt has finished', () => {
    fakeClock();
    const queue = new DeadlineQueue();
    const entries = [entry(30_000), entry(30_000), entry(5_000)];
    entries.forEach((e) => queue.add(e.timeout, e));
    expect(vi.getTimerCount()).toBe(1);
    entries.forEach((e) => queue.remove(e.timeout, e));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stays small while one slow attempt holds the front and thousands finish behind it', () => {
    fakeClock();
    const queue = new DeadlineQueue();
    const slow = entry(30_000);
    queue.add(30_000, slow);
    for (let i = 0; i < 100_000; i++) {
      const e = entry(30_000);
      queue.add(30_000, e);
      queue.remove(30_000, e);
    }
    expect(queue.held).toBeLessThan(1_000);
    queue.remove(30_000, slow);
    expect(vi.getTimerCount()).toBe(0);
  });
});
