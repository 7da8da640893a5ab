/**
 * Small tools the reliability suite shares: a seeded RNG (so a failing run can be replayed), a
 * bounded-concurrency runner, forced GC, and one line per figure set that docs/reliability.md
 * copies from.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

// One seeded RNG (the sandbox's mulberry32), shared with the webhook forgery proof.
export { mulberry32 as rng } from '../../../src/testing/endpoints/faults.js';

/** A 32-bit seed from a run seed and any strings (FNV-1a), so each request's fate is reproducible. */
export function seedOf(seed: number, ...parts: string[]): number {
  let h = (2_166_136_261 ^ seed) >>> 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 16_777_619) >>> 0;
    h = Math.imul(h ^ 0x2f, 16_777_619) >>> 0;
  }
  return h;
}

/** Runs `task(i)` for i in [0, count) with at most `limit` at once; resolves when all settled. */
export async function pool(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

let collect: (() => void) | undefined;
/** A full garbage collection, without needing node to be started with --expose-gc. */
export function gc(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
  collect();
}

/** Prints one figure set as a single greppable line: `[figures] name {json}`. */
export function report(name: string, figures: Record<string, unknown>): void {
  console.log(`[figures] ${name} ${JSON.stringify(figures)}`);
}

/** Milliseconds since `start` (a performance.now() value), rounded. */
export const since = (start: number): number => Math.round(performance.now() - start);
