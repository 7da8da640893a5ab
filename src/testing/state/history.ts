/**
 * What the sandbox keeps a bounded amount of (requests answered, webhook attempts made, refunds,
 * debits): the newest `limit` records, so a development server left running for days, or flooded,
 * holds a bounded amount of memory.
 */

/** The newest `limit` items pushed, oldest first. @internal */
export class History<T> {
  #items: T[] = [];

  /** @param limit - how many records to keep; 0 keeps none. */
  constructor(readonly limit: number) {}

  /** Adds a record; the oldest go a tenth of the limit at a time, so a full history is not copied per push. */
  push(item: T): void {
    if (this.limit === 0) return;
    this.#items.push(item);
    if (this.#items.length > this.limit + Math.ceil(this.limit / 10))
      this.#items = this.#items.slice(-this.limit);
  }

  /** The records kept, oldest first. */
  toArray(): T[] {
    return this.#items.slice(-this.limit);
  }

  /** Forgets every record. */
  clear(): void {
    this.#items = [];
  }
}
