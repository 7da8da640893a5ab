/**
 * Idempotent replay of POSTs, as the service's specification says: the first answer to a key is
 * saved, and every later request with that key gets it again, byte for byte, and changes nothing,
 * whatever its parameters. A key reused for a different request (another amount, another channel)
 * therefore gets the first request's answer, as it would in production; the SDK checks answers
 * against requests, and the development log flags such a replay, so the merchant's tests show
 * the mistake instead of a 422 production never sends.
 */
import { createHash } from 'node:crypto';

import type { SavedResponse } from './envelope.js';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * What makes two requests "the same": method, path and body, with the body's keys in any order,
 * since two JSON encoders of one object may order them differently. A body that is not JSON
 * compares as text. Kept as a hash, so a saved key costs the same for a 1 MiB body as for 100 bytes.
 * @internal
 */
export function fingerprint(method: string, path: string, body: string): string {
  let normalized = body;
  try {
    normalized = JSON.stringify(canonical(JSON.parse(body)));
  } catch {
    // Not JSON: compared as sent.
  }
  return createHash('sha256').update(`${method} ${path}\n${normalized}`).digest('base64');
}

/**
 * The store's key: the API key and the idempotency key together, so two merchants (or a test and
 * a live-like key) that pick the same idempotency key never get each other's answers.
 * @internal
 */
export function storeKey(apiKey: string, idempotencyKey: string): string {
  return `${createHash('sha256').update(apiKey).digest('base64')} ${idempotencyKey}`;
}

/** The saved answers, by API key and idempotency key, the newest `limit` of them. @internal */
export class IdempotencyStore {
  /** The answer saved for a key, and the fingerprint of the request it answered. */
  readonly #entries = new Map<string, { fingerprint: string; response: SavedResponse }>();

  /** @param limit - keys kept; past it the oldest is forgotten, as keys expire on the service. */
  constructor(readonly limit: number) {}

  /** The answer saved for a key, if any; `sameRequest` is false when it answered another request. */
  lookup(key: string, print: string): { response: SavedResponse; sameRequest: boolean } | undefined {
    const entry = this.#entries.get(key);
    return entry && { response: entry.response, sameRequest: entry.fingerprint === print };
  }

  /**
   * Saves an answer for replay. Answers that refused the request before acting on it (400 for a
   * malformed body, 401, 403) are not saved, so a merchant can fix the request and send it again
   * with the same key; answers of the endpoint itself, errors included (404, 409, 422), are.
   */
  remember(key: string, print: string, response: SavedResponse): void {
    if (response.status === 400 || response.status === 401 || response.status === 403) return;
    this.#entries.set(key, { fingerprint: print, response });
    if (this.#entries.size > this.limit) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  /** Forgets every key. */
  clear(): void {
    this.#entries.clear();
  }
}
