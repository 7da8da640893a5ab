import { IdempotencyError } from '../errors/call.js';

// The service answers a repeated key with the first request's saved answer, whatever the new
// parameters: so a key sent with other parameters is refused, and each answer must echo its request.

/** A response field that must echo a request parameter, when both are present. */
export interface Echo {
  /** Dotted path in the response `data`, for example `customer.handle`. */
  field: string;
  /** The parameter it must equal. */
  param: string;
  /** Brings both sides to one form before comparing (a handle with or without `@`). */
  normalize?: (value: unknown) => unknown;
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
  let current = data;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The fields of `data` that contradict the parameters, as `field: sent X, answered Y`. */
export function mismatches(
  echoes: readonly Echo[],
  params: Record<string, unknown>,
  data: unknown,
): string[] {
  const out: string[] = [];
  for (const { field, param, normalize = (value: unknown): unknown => value } of echoes) {
    const sent = params[param];
    const received = at(data, field);
    if (sent === undefined || received === undefined || received === null) continue;
    const [s, r] = [normalize(sent), normalize(received)];
    if (s !== undefined && r !== undefined && s !== r)
      out.push(`${field}: sent ${JSON.stringify(sent)}, answered ${JSON.stringify(received)}`);
  }
  return out;
}

/**
 * The error for an answer that belongs to another request. `unknown`: an earlier attempt of the call
 * may have acted (a 5xx, a lost connection), which a mismatched answer cannot undo; how to confirm.
 */
export function replayMismatch(
  endpoint: string,
  key: string,
  differences: readonly string[],
  received: unknown,
  attempts: number,
  unknown?: { confirm: string | undefined },
): IdempotencyError {
  const mismatch = `The answer to ${endpoint} does not match its request (${differences.join('; ')})`;
  const message = unknown
    ? `${mismatch}: it is the saved answer of a different request made with idempotencyKey '${key}', ` +
      `or an answer mixed up on its way. The outcome is unknown: an earlier attempt of this call may ` +
      `have been carried out. ${unknown.confirm ? `Confirm with ${unknown.confirm}` : 'Check with the service'} ` +
      `before sending this operation again. ${ADVICE}`
    : `${mismatch}: the service returned the saved answer of a different, earlier request made with ` +
      `idempotencyKey '${key}', so this request was NOT carried out. ${ADVICE} Then send this ` +
      `operation again with its own new key.`;
  return new IdempotencyError('replay_mismatch', {
    endpoint,
    idempotencyKey: key,
    attempts,
    outcomeUnknown: unknown !== undefined,
    received,
    message,
  });
}

/** The keys this client sent lately (the last 4,096), each with a hash of what it was sent with. */
export class KeyMemory {
  readonly #seen: Recent<string>;

  constructor(limit = 4096) {
    this.#seen = new Recent(limit);
  }

  /** Records `key` with these parameters (`body` their JSON; nested ones sorted); false if sent with others. */
  claim(key: string, route: string, params: Record<string, unknown>, body: string): boolean {
    const nested = Object.values(params).some((value) => typeof value === 'object' && value !== null);
    const print = hash(`${route} ${nested ? canonical(params) : body}`);
    const before = this.#seen.get(key);
    if (before !== undefined && before !== print) return false;
    this.#seen.set(key, print);
    return true;
  }
}

function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
}

// Two FNV-1a passes with different seeds, 64 bits: a small print however long the body (not a secret).
function hash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return `${a >>> 0}:${b >>> 0}`;
}

/** The one bounded memory of recent keys: the last `limit` written (a rewrite renews), oldest forgotten. */
export class Recent<V> {
  readonly #limit: number;
  readonly #map = new Map<string, V>();
  // Kept across calls: a new keys() would walk every hole evictions left (docs/performance.md).
  readonly #oldest = this.#map.keys();

  /** @param limit - how many of the last writes are remembered; at least 1. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** How many keys are held. */
  get size(): number {
    return this.#map.size;
  }

  /** The value last written for a key, or undefined once it is older than the last `limit` writes. */
  get(key: string): V | undefined {
    return this.#map.get(key);
  }

  /** Writes a key's value. */
  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#limit) this.#map.delete(this.#oldest.next().value!);
  }
}
