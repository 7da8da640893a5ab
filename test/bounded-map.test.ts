/** The one bounded key cache: memory stays flat, the least recently used key goes first. */
import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../src/internal/bounded-map.js';

describe('BoundedMap', () => {
  it('never holds more than its limit, however many keys it sees', () => {
    const map = new BoundedMap<number, number>(100);
    for (let i = 0; i < 10_000; i++) map.set(i, i);
    expect(map.size).toBe(100);
    expect(map.has(9_999)).toBe(true);
    expect(map.has(9_899)).toBe(false);
  });

  it('forgets the least recently used first, and says what it evicted', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1); // a is now the most recent
    expect(map.set('c', 3)).toEqual(['b', 2]);
    expect([map.has('a'), map.has('b'), map.has('c')]).toEqual([true, false, true]);
  });

  it('peek and has do not change the order; set of a held key refreshes it', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.peek('a')).toBe(1);
    expect(map.set('c', 3)).toEqual(['a', 1]);
    map.set('b', 20);
    expect(map.set('d', 4)).toEqual(['c', 3]);
    expect(map.get('b')).toBe(20);
  });

  it('evicts exactly what a plain least-recently-used list would, over a long random run', () => {
    // Seeded LCG: the same run every time.
    let seed = 42;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const map = new BoundedMap<number, number>(50);
    let model: [number, number][] = [];
    for (let step = 0; step < 40_000; step++) {
      const key = next(120);
      const op = next(10);
      if (op < 6) {
        const evicted = map.set(key, step);
        model = model.filter(([k]) => k !== key);
        model.push([key, step]);
        expect(evicted).toEqual(model.length > 50 ? model.shift() : undefined);
      } else if (op < 8) {
        const held = model.find(([k]) => k === key);
        expect(map.get(key)).toBe(held?.[1]);
        if (held) model = [...model.filter(([k]) => k !== key), held];
      } else if (op < 9) {
        expect(map.delete(key)).toBe(model.some(([k]) => k === key));
        model = model.filter(([k]) => k !== key);
      } else if (next(200) === 0) {
        map.clear();
        model = [];
      } else expect(map.peek(key)).toBe(model.find(([k]) => k === key)?.[1]);
      expect(map.size).toBe(model.length);
    }
  });

  it('refuses a limit that would hold nothing', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});
