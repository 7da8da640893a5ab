/**
 * A bounded memory of hashed keys, each with a number, in typed arrays: no object, string or Map
 * entry per key. A client remembers the idempotency key of every POST it sent; kept as strings in
 * a `Map`, thousands of keys (each a generated UUID, itself a tree of small strings) cost the
 * garbage collector more than the rest of a call. Here a key is two 32-bit hashes in a table with
 * linear probing, and the keys' order of arrival in a ring: the oldest key goes first.
 */

/** Two 32-bit hashes of a text (FNV-1a, and the same walk with MurmurHash's multiplier). @internal */
export function hashPair(text: string, seed = 0): [number, number] {
  let a = 0x811c9dc5 ^ seed;
  let b = 0x01000193 ^ text.length ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return [a | 0, b | 0];
}

const EMPTY = -1;
const FIRST_SIZE = 64;

/**
 * Keys (as {@link hashPair}) to numbers: the last `limit` keys set, in the order they first came;
 * setting a held key again changes its value, not its place.
 * @internal
 */
export class HashMemory {
  readonly #limit: number;
  // Per table index: the key's two hashes, its value, and its place in the ring (EMPTY: free).
  #a = new Int32Array(0);
  #b = new Int32Array(0);
  #value = new Float64Array(0);
  #place = new Int32Array(0);
  // Per key, oldest first from #next once full: its table index (EMPTY while the ring fills).
  #ring = new Int32Array(0);
  #next = 0;
  #size = 0;
  // 32 minus log2 of the table's size: a home is the top bits of a multiplicative hash.
  #shift = 32;

  /** @param limit - how many keys to keep; at least 1. */
  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`HashMemory limit: ${limit}`);
    this.#limit = limit;
  }

  /** How many keys are held. */
  get size(): number {
    return this.#size;
  }

  /** The value of a key, or undefined. */
  get(a: number, b: number): number | undefined {
    const i = this.#find(a, b);
    return i === EMPTY ? undefined : this.#value[i];
  }

  /** Stores the key's value; a new key past the limit makes the oldest one go. */
  set(a: number, b: number, value: number): void {
    const held = this.#find(a, b);
    if (held !== EMPTY) {
      this.#value[held] = value;
      return;
    }
    if (this.#size === this.#ring.length) {
      if (this.#ring.length < this.#limit) this.#grow();
      else this.#remove(this.#ring[this.#next]!);
    }
    const mask = this.#place.length - 1;
    let i = this.#home(a, b);
    while (this.#place[i] !== EMPTY) i = (i + 1) & mask;
    this.#a[i] = a;
    this.#b[i] = b;
    this.#value[i] = value;
    this.#place[i] = this.#next;
    this.#ring[this.#next] = i;
    this.#next = (this.#next + 1) % this.#ring.length;
    this.#size++;
  }

  #home(a: number, b: number): number {
    return Math.imul(a ^ (b >>> 7), 0x9e3779b1) >>> this.#shift;
  }

  #find(a: number, b: number): number {
    const mask = this.#place.length - 1;
    if (mask < 0) return EMPTY;
    for (let i = this.#home(a, b); this.#place[i] !== EMPTY; i = (i + 1) & mask) {
      if (this.#a[i] === a && this.#b[i] === b) return i;
    }
    return EMPTY;
  }

  // Linear probing's deletion: later keys of the same run move back, so no search stops early.
  #remove(at: number): void {
    const mask = this.#place.length - 1;
    this.#ring[this.#place[at]!] = EMPTY;
    this.#place[at] = EMPTY;
    this.#size--;
    let hole = at;
    for (let j = (at + 1) & mask; this.#place[j] !== EMPTY; j = (j + 1) & mask) {
      const home = this.#home(this.#a[j]!, this.#b[j]!);
      // Keys whose home lies cyclically in (hole, j] stay; the others may move into the hole.
      const stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (stays) continue;
      this.#a[hole] = this.#a[j]!;
      this.#b[hole] = this.#b[j]!;
      this.#value[hole] = this.#value[j]!;
      this.#place[hole] = this.#place[j]!;
      this.#ring[this.#place[hole]!] = hole;
      this.#place[j] = EMPTY;
      hole = j;
    }
  }

  // Twice the keys (at most `limit`), in a table twice that size: kept at most half full.
  #grow(): void {
    const keys = Math.min(this.#limit, Math.max(FIRST_SIZE, this.#ring.length * 2));
    let bits = 1;
    while (1 << bits < keys * 2) bits++;
    const table = 1 << bits;
    this.#shift = 32 - bits;
    const [a, b, value, ring, next] = [this.#a, this.#b, this.#value, this.#ring, this.#next];
    this.#a = new Int32Array(table);
    this.#b = new Int32Array(table);
    this.#value = new Float64Array(table);
    this.#place = new Int32Array(table).fill(EMPTY);
    this.#ring = new Int32Array(keys).fill(EMPTY);
    this.#next = 0;
    this.#size = 0;
    // Oldest first, so the order of arrival carries over.
    for (let k = 0; k < ring.length; k++) {
      const at = ring[(next + k) % ring.length]!;
      if (at !== EMPTY) this.set(a[at]!, b[at]!, value[at]!);
    }
  }
}
