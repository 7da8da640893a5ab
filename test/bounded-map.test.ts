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

  it('refuses a limit that would hold nothing', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});
