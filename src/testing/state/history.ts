/**
 * A ring buffer for the sandbox's logs (requests answered, webhook attempts made): the newest
 * `limit` records are kept, the oldest dropped, so a development server left running for days, or
 * flooded, holds a bounded amount of memory.
 */

/** The newest `limit` items pushed, oldest first. @internal */
export class History<T> {
  readonly #items: (T | undefined)[];
  #start = 0;
  #size = 0;
  #dropped = 0;

  /** @param limit - how many records to keep; 0 keeps none. */
  constructor(readonly limit: number) {
    this.#items = new Array<T | undefined>(limit);
  }

  /** Adds a record, dropping the oldest when full. */
  push(item: T): void {
    if (this.limit === 0) {
      this.#dropped += 1;
      return;
    }
    if (this.#size < this.limit) {
      this.#items[(this.#start + this.#size) % this.limit] = item;
      this.#size += 1;
      return;
    }
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.limit;
    this.#dropped += 1;
  }

  /** How many records were dropped to keep within the limit. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The records kept, oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.#size; i += 1) out.push(this.#items[(this.#start + i) % this.limit] as T);
    return out;
  }

  /** Forgets every record. */
  clear(): void {
    this.#items.fill(undefined);
    this.#start = 0;
    this.#size = 0;
    this.#dropped = 0;
  }
}
