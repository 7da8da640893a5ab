/**
 * The one bounded key cache: a `Map` that keeps at most `limit` entries and forgets the least
 * recently used first, so a long-running server's memory stays flat however many keys it sees.
 * A `Map` iterates in insertion order, so "recently used" is "re-inserted": O(1) per operation.
 * The oldest entry is read from one iterator kept for the map's life: a fresh iterator per
 * eviction would step again over every slot the evictions emptied since the table last shrank
 * (thousands, for a full map of thousands), where the kept one steps over each slot once.
 */

/** A map of at most `limit` entries, least recently used evicted first. @internal */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #limit: number;
  // Everything before its position was evicted through it, and an entry set again moves to the
  // end, so its next key is always the least recently used one.
  #oldest: Iterator<K> = this.#entries.keys();

  /** @param limit - how many entries to keep; at least 1. */
  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`BoundedMap limit: ${limit}`);
    this.#limit = limit;
  }

  /** The value for `key`, marking it recently used; undefined when absent (or forgotten). */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** The value for `key` without marking it used. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** True when `key` is held; does not mark it used. */
  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Stores `value` as the most recently used; evicts the oldest past the limit and returns it. */
  set(key: K, value: V): [K, V] | undefined {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size <= this.#limit) return undefined;
    const oldest = this.#oldest.next();
    // Never done: the map holds more than its limit, and every entry lies ahead of the iterator.
    if (oldest.done === true) return undefined;
    const evicted = oldest.value;
    const kept = this.#entries.get(evicted) as V;
    this.#entries.delete(evicted);
    return [evicted, kept];
  }

  /** Forgets `key`; true when it was held. */
  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
    this.#oldest = this.#entries.keys();
  }

  /** How many entries are held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The most entries ever held at once. */
  get limit(): number {
    return this.#limit;
  }
}
