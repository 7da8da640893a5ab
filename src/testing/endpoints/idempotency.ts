/**
 * Idempotent replay of POSTs: the first answer to a key is saved and replayed byte for byte, whatever
 * the later request's parameters; the log flags a key reused for a different request.
 */
import { createHash } from 'node:crypto';

import type { SavedResponse } from './wire.js';

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

/** Method, path and body, the body's keys in any order (non-JSON as text), hashed to stay small. @internal */
export function fingerprint(method: string, path: string, body: string): string {
  let normalized = body;
  try {
    normalized = JSON.stringify(canonical(JSON.parse(body)));
  } catch {
    // Not JSON: compared as sent.
  }
  return createHash('sha256').update(`${method} ${path}\n${normalized}`).digest('base64');
}

/** The API key and the idempotency key: two merchants' equal keys never share answers. @internal */
export function storeKey(apiKey: string, idempotencyKey: string): string {
  return `${createHash('sha256').update(apiKey).digest('base64')} ${idempotencyKey}`;
}

/** The saved answers, by API key and idempotency key, the newest `limit` of them. @internal */
export class IdempotencyStore {
  readonly #entries = new Map<string, { fingerprint: string; response: SavedResponse }>();

  /** @param limit - keys kept; past it the oldest is forgotten, as keys expire on the service. */
  constructor(readonly limit: number) {}

  /** The answer saved for a key, if any; `sameRequest` is false when it answered another request. */
  lookup(key: string, print: string): { response: SavedResponse; sameRequest: boolean } | undefined {
    const entry = this.#entries.get(key);
    return entry && { response: entry.response, sameRequest: entry.fingerprint === print };
  }

  /** Saves an answer, unless it refused the request before acting (400, 401, 403): fix and resend. */
  remember(key: string, print: string, response: SavedResponse): void {
    if (response.status === 400 || response.status === 401 || response.status === 403) return;
    this.#entries.set(key, { fingerprint: print, response });
    if (this.#entries.size > this.limit) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
