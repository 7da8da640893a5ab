/**
 * The one bounded memory of recent keys: a `Map` from each key to its value and when it was
 * written. A key reads as held while it was written within the last `limit` writes (writing it
 * again renews it: a charge dispatched again is remembered with its new prompt; a key retried
 * with its own parameters stays guarded). Once the map holds twice the limit, the keys no longer
 * held are dropped in one pass: memory stays bounded, and no write pays for the Map's oldest entry
 * (deleting entries one by one from a Map's front makes V8 walk the holes they leave).
 */
export class Recent<V> {
  readonly #limit: number;
  readonly #map = new Map<string, { value: V; at: number }>();
  #writes = 0;

  /** @param limit - how many of the last writes are remembered; at least 1. */
  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`Recent limit: ${limit}`);
    this.#limit = limit;
  }

  /** How many keys are held. */
  get size(): number {
    let held = 0;
    for (const entry of this.#map.values()) if (this.#holds(entry.at)) held++;
    return held;
  }

  /** The value last written for a key, or undefined once it is older than the last `limit` writes. */
  get(key: string): V | undefined {
    const entry = this.#map.get(key);
    return entry !== undefined && this.#holds(entry.at) ? entry.value : undefined;
  }

  /** Writes a key's value. */
  set(key: string, value: V): void {
    this.#map.set(key, { value, at: ++this.#writes });
    if (this.#map.size <= 2 * this.#limit) return;
    for (const [held, entry] of this.#map) if (!this.#holds(entry.at)) this.#map.delete(held);
  }

  #holds(at: number): boolean {
    return at > this.#writes - this.#limit;
  }
}
