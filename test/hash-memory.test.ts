/**
 * The one bounded key memory (idempotency keys, dispatch expiries): bounded, the key written longest
 * ago out first, never losing or inventing a key.
 */
import { describe, expect, it } from 'vitest';
import { HashMemory, hashPair } from '../src/internal/hash-memory.js';

// Seeded LCG: the same run every time.
function rng(seed: number): (n: number) => number {
  return (n) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
}

describe('HashMemory', () => {
  it.each([1, 3, 50, 64, 100, 300])(
    'holds exactly what a plain list of the %i keys written last would, over a long random run',
    (limit) => {
      const next = rng(limit);
      const memory = new HashMemory(limit);
      let model: { a: number; b: number; value: number }[] = [];
      for (let step = 0; step < 20_000; step++) {
        // Few distinct hashes, so keys share homes and long probe runs form and break up.
        const a = next(4 * limit + 3) - limit;
        const b = next(3);
        if (next(3) > 0) {
          memory.set(a, b, step);
          // A key written again moves to the newest end.
          model = model.filter((k) => k.a !== a || k.b !== b);
          model.push({ a, b, value: step });
          if (model.length > limit) model = model.slice(1);
        } else {
          expect(memory.get(a, b)).toBe(model.find((k) => k.a === a && k.b === b)?.value);
        }
        expect(memory.size).toBe(model.length);
      }
      for (const k of model) expect(memory.get(k.a, k.b)).toBe(k.value);
    },
  );

  it('makes a key written again the newest, and a read changes nothing', () => {
    const memory = new HashMemory(2);
    memory.set(1, 1, 10);
    memory.set(2, 2, 20);
    expect(memory.get(1, 1)).toBe(10);
    memory.set(3, 3, 30); // 1 was written longest ago: the read did not keep it
    expect([memory.get(1, 1), memory.get(2, 2), memory.get(3, 3)]).toEqual([undefined, 20, 30]);
    memory.set(2, 2, 21);
    memory.set(4, 4, 40); // 2 was written again after 3: 3 goes
    expect([memory.get(2, 2), memory.get(3, 3), memory.get(4, 4)]).toEqual([21, undefined, 40]);
  });

  it('tells different texts apart by two hashes, and gives the same text the same pair', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) seen.add(hashPair(`key-${i}`).join(','));
    expect(seen.size).toBe(50_000);
    expect(hashPair('refund-row-7')).toEqual(hashPair('refund-row-7'));
    expect(hashPair('refund-row-7', 1)).not.toEqual(hashPair('refund-row-7'));
  });

  it('refuses a limit that would hold nothing', () => {
    expect(() => new HashMemory(0)).toThrow(RangeError);
  });
});
