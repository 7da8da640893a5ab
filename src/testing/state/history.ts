/**
 * A ring buffer for what the sandbox keeps a bounded amount of (requests answered, webhook attempts
 * made, refunds, debits): the newest `limit` records are kept, the oldest dropped in place, so a
 * development server left running for days, or flooded, holds a bounded amount of memory and never
 * copies a full history to make room (`test/sandbox/bounds.stress.ts` holds it to that).
 */

/** The newest `limit` items pushed, oldest first. @internal */
export class History<T> {
  #items: T[] = [];
  #start = 0;

  /** @param limit - how many records to keep; 0 keeps none. */
  constructor(readonly limit: number) {}

  /** Adds a record, dropping the oldest when full. */
  push(item: T): void {
    if (this.limit === 0) return;
    if (this.#items.length < this.limit) {
      this.#items.push(item);
      return;
    }
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.limit;
  }

  /** The records kept, oldest first. */
  toArray(): T[] {
    return [...this.#items.slice(this.#start), ...this.#items.slice(0, this.#start)];
  }

  /** Forgets every record. */
  clear(): void {
    this.#items = [];
    this.#start = 0;
  }
}
