import { IdempotencyError } from '../errors/call.js';

/**
 * Keys that cannot lie. The service answers a repeated `X-Idempotency-Key` with the saved response
 * of the first request that carried it, whatever the new parameters; so a client guards both ends:
 * it refuses to send a key it already sent with other parameters, and it checks that each answer
 * echoes its own request.
 */

/** A response field that must echo a request parameter, when both are present. */
export interface Echo {
  /** Dotted path in the response `data`, for example `customer.handle`. */
  field: string;
  /** The parameter it must equal. */
  param: string;
  /** Brings both sides to one form before comparing (a handle with or without `@`). */
  normalize?: (value: unknown) => unknown;
}

// Enough for every operation a busy server starts within the service's retry window, bounded so a
// long-lived client never grows.
const REMEMBERED_KEYS = 4096;

/** The keys this client sent lately (at least the last 4,096), each with a hash of what it was sent with. */
export class KeyMemory {
  // Each key with a 53-bit hash of its route and parameters, not their text: bodies can be long.
  readonly #seen: Recent<number>;

  constructor(limit: number = REMEMBERED_KEYS) {
    this.#seen = new Recent(limit);
  }

  /**
   * Records `key` as sent with these parameters; false when this client already sent it with other
   * ones (the caller refuses the call). The same key with the same parameters is a retry: fine.
   * `params` are the checked parameters and `body` their JSON: checked top-level parameters come in
   * the schema's order, so equal bodies mean equal parameters, and the common path hashes the body.
   * Nested objects (metadata) may hold the same keys in another order, so those calls hash the
   * canonical form (keys sorted at every level).
   */
  claim(key: string, route: string, params: Record<string, unknown>, body: string): boolean {
    const print = printOf(route, hasNested(params) ? canonical(params) : body);
    const before = this.#seen.get(key);
    if (before !== undefined && before !== print) return false;
    this.#seen.set(key, print);
    return true;
  }
}

function hasNested(params: Record<string, unknown>): boolean {
  for (const name in params) {
    const value = params[name];
    if (typeof value === 'object' && value !== null) return true;
  }
  return false;
}

// Object keys sorted at every level: the same parameters built in another order are the same request.
function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
}

// Two 32-bit hashes of a text (FNV-1a, and the same walk with MurmurHash's multiplier).
function hashPair(text: string, seed = 0): [number, number] {
  let a = 0x811c9dc5 ^ seed;
  let b = 0x01000193 ^ text.length ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return [a | 0, b | 0];
}

// The route and the parameters' text as one 53-bit number (two 32-bit hashes; not a secret).
function printOf(route: string, text: string): number {
  const [a1, b1] = hashPair(route);
  const [a2, b2] = hashPair(text, a1 ^ b1);
  return ((b2 ^ b1) >>> 11) * 0x100000000 + ((a2 ^ a1) >>> 0);
}

const ADVICE =
  'Use a fresh key per operation: one stored with the operation it belongs to (the refund row, the ' +
  'payment attempt) before sending, never one per order.';

/** The refusal of a key this client already sent with other parameters; nothing was sent. */
export function keyReused(endpoint: string, key: string): IdempotencyError {
  return new IdempotencyError('idempotency_key_reused', {
    endpoint,
    idempotencyKey: key,
    message:
      `${endpoint} was not sent: idempotencyKey '${key}' was already sent by this client with ` +
      `different parameters, and the service would answer with that earlier request's saved result ` +
      `instead of carrying out this one. Nothing was sent. ${ADVICE}`,
  });
}

function at(data: unknown, path: string): unknown {
  if (!path.includes('.'))
    return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[path] : undefined;
  let current = data;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const same = (value: unknown): unknown => value;

/** The fields of `data` that contradict the parameters, as `field: sent X, answered Y`. */
export function mismatches(
  echoes: readonly Echo[],
  params: Record<string, unknown>,
  data: unknown,
): string[] {
  const out: string[] = [];
  for (const { field, param, normalize = same } of echoes) {
    const sent = params[param];
    const received = at(data, field);
    if (sent === undefined || received === undefined || received === null) continue;
    const [s, r] = [normalize(sent), normalize(received)];
    if (s === undefined || r === undefined) continue;
    if (s !== r) out.push(`${field}: sent ${JSON.stringify(sent)}, answered ${JSON.stringify(received)}`);
  }
  return out;
}

/** The error for an answer that belongs to another request. */
export function replayMismatch(
  endpoint: string,
  key: string,
  differences: readonly string[],
  received: unknown,
  attempts: number,
): IdempotencyError {
  return new IdempotencyError('replay_mismatch', {
    endpoint,
    idempotencyKey: key,
    attempts,
    received,
    message:
      `The answer to ${endpoint} does not match its request (${differences.join('; ')}): the ` +
      `service returned the saved answer of a different, earlier request made with idempotencyKey ` +
      `'${key}', so this request was NOT carried out. ${ADVICE} Then send this operation again ` +
      `with its own new key.`,
  });
}

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
