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

/** An answer; `otherRequest` when it replays a key first used for a different request. @internal */
export type Outcome = { response: SavedResponse; replayed: boolean; otherRequest?: boolean };

/** The saved answers, by API key and idempotency key, the newest `limit` of them. @internal */
export class IdempotencyStore {
  readonly #entries = new Map<string, { fingerprint: string; response: SavedResponse }>();

  /** @param limit - keys kept; past it the oldest is forgotten, as keys expire on the service. */
  constructor(readonly limit: number) {}

  /**
   * The answer saved for a key (two merchants' equal keys never share one), or else `run()`'s, saved
   * unless it refused the request before acting (400, 401, 403): fix and resend.
   */
  answer(apiKey: string, key: string, print: string, run: () => SavedResponse): Outcome {
    const stored = `${createHash('sha256').update(apiKey).digest('base64')} ${key}`;
    const entry = this.#entries.get(stored);
    if (entry) return { response: entry.response, replayed: true, otherRequest: entry.fingerprint !== print };
    const response = run();
    if (![400, 401, 403].includes(response.status)) {
      this.#entries.set(stored, { fingerprint: print, response });
      if (this.#entries.size > this.limit) this.#entries.delete(this.#entries.keys().next().value!);
    }
    return { response, replayed: false };
  }

  clear(): void {
    this.#entries.clear();
  }
}
