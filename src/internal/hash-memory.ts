/**
 * The one bounded memory of recent keys: hashed keys, each with a number, in typed arrays, so no
 * object, string or Map entry is kept per key. A client remembers the idempotency key of every
 * POST it sent and the expiry of every prompt it dispatched; kept as strings in a `Map`, thousands
 * of keys (each a generated UUID, itself a tree of small strings) cost the garbage collector more
 * than the rest of a call. Here a key is two 32-bit hashes in a table with linear probing, and the
 * keys are linked in the order they were last written: the key written longest ago goes first.
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

const NONE = -1;
const FIRST_SIZE = 64;

/**
 * Keys (as {@link hashPair}) to numbers: the last `limit` keys written. Writing a held key again
 * changes its value and makes it the newest (a charge dispatched again is remembered with its new
 * prompt; a key retried with its own parameters stays guarded); reading changes nothing.
 * @internal
 */
export class HashMemory {
  readonly #limit: number;
  // Per table slot: the key's two hashes, its value, whether it is in use, and its neighbours in
  // the order of writing (NONE past either end).
  #a = new Int32Array(0);
  #b = new Int32Array(0);
  #value = new Float64Array(0);
  #used = new Uint8Array(0);
  #older = new Int32Array(0);
  #newer = new Int32Array(0);
  #oldest = NONE;
  #newest = NONE;
  #size = 0;
  // How many keys the table holds before it grows (at most `limit`); it is kept at most half full.
  #capacity = 0;
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

  /** The value of a key, or undefined; the key's place is not changed. */
  get(a: number, b: number): number | undefined {
    const i = this.#find(a, b);
    return i === NONE ? undefined : this.#value[i];
  }

  /** Stores the key's value as the newest; a new key past the limit makes the oldest one go. */
  set(a: number, b: number, value: number): void {
    const held = this.#find(a, b);
    if (held !== NONE) {
      this.#value[held] = value;
      if (held !== this.#newest) {
        this.#unlink(held);
        this.#append(held);
      }
      return;
    }
    if (this.#size === this.#capacity) {
      if (this.#capacity < this.#limit) this.#grow();
      else this.#remove(this.#oldest);
    }
    const mask = this.#used.length - 1;
    let i = this.#home(a, b);
    while (this.#used[i] === 1) i = (i + 1) & mask;
    this.#a[i] = a;
    this.#b[i] = b;
    this.#value[i] = value;
    this.#used[i] = 1;
    this.#append(i);
    this.#size++;
  }

  #home(a: number, b: number): number {
    return Math.imul(a ^ (b >>> 7), 0x9e3779b1) >>> this.#shift;
  }

  #find(a: number, b: number): number {
    const mask = this.#used.length - 1;
    if (mask < 0) return NONE;
    for (let i = this.#home(a, b); this.#used[i] === 1; i = (i + 1) & mask) {
      if (this.#a[i] === a && this.#b[i] === b) return i;
    }
    return NONE;
  }

  #append(i: number): void {
    this.#older[i] = this.#newest;
    this.#newer[i] = NONE;
    if (this.#newest === NONE) this.#oldest = i;
    else this.#newer[this.#newest] = i;
    this.#newest = i;
  }

  #unlink(i: number): void {
    const [older, newer] = [this.#older[i]!, this.#newer[i]!];
    if (older === NONE) this.#oldest = newer;
    else this.#newer[older] = newer;
    if (newer === NONE) this.#newest = older;
    else this.#older[newer] = older;
  }

  // Linear probing's deletion: later keys of the same run move back, so no search stops early.
  #remove(at: number): void {
    const mask = this.#used.length - 1;
    this.#unlink(at);
    this.#used[at] = 0;
    this.#size--;
    let hole = at;
    for (let j = (at + 1) & mask; this.#used[j] === 1; j = (j + 1) & mask) {
      const home = this.#home(this.#a[j]!, this.#b[j]!);
      // Keys whose home lies cyclically in (hole, j] stay; the others may move into the hole.
      const stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (stays) continue;
      this.#move(j, hole);
      hole = j;
    }
  }

  // A key moved to another slot keeps its place in the order: its neighbours point at the new slot.
  #move(from: number, to: number): void {
    this.#a[to] = this.#a[from]!;
    this.#b[to] = this.#b[from]!;
    this.#value[to] = this.#value[from]!;
    this.#used[to] = 1;
    this.#used[from] = 0;
    const [older, newer] = [this.#older[from]!, this.#newer[from]!];
    this.#older[to] = older;
    this.#newer[to] = newer;
    if (older === NONE) this.#oldest = to;
    else this.#newer[older] = to;
    if (newer === NONE) this.#newest = to;
    else this.#older[newer] = to;
  }

  // Twice the keys (at most `limit`), in a table twice that size.
  #grow(): void {
    const keys = Math.min(this.#limit, Math.max(FIRST_SIZE, this.#capacity * 2));
    let bits = 1;
    while (1 << bits < keys * 2) bits++;
    const table = 1 << bits;
    const [a, b, value, newer, oldest] = [this.#a, this.#b, this.#value, this.#newer, this.#oldest];
    this.#a = new Int32Array(table);
    this.#b = new Int32Array(table);
    this.#value = new Float64Array(table);
    this.#used = new Uint8Array(table);
    this.#older = new Int32Array(table);
    this.#newer = new Int32Array(table);
    this.#oldest = this.#newest = NONE;
    this.#size = 0;
    this.#capacity = keys;
    this.#shift = 32 - bits;
    // Oldest first, so the order of writing carries over.
    for (let at = oldest; at !== NONE; at = newer[at]!) this.set(a[at]!, b[at]!, value[at]!);
  }
}
