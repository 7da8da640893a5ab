/**
 * A dedupe store in this process's memory: for one instance, or for tests. A fleet needs a shared
 * store ({@link redisDedupeStore}).
 */
import {
  TTL_RULES,
  checkStoreOptions,
  claimToken,
  type DedupeClaim,
  type MemoryDedupeStoreOptions,
  type WebhookDedupeStore,
} from './types.js';

interface Entry {
  /** The claim's owner; undefined once the event is done. */
  token: string | undefined;
  /** When the entry stops counting, in `Date.now()` ms. */
  until: number;
}

/** Claims between two sweeps of expired entries: keeps memory bounded by the ttl at O(1) a call. */
const SWEEP_EVERY = 1024;

/**
 * A {@link WebhookDedupeStore} held in this process's memory. Concurrent deliveries of one event to
 * this process run `onEvent` once; other processes do not see it, and a restart forgets it. Memory
 * grows with the events handled within `ttl` (about 100 bytes each, plus the reference).
 *
 * @param options - see {@link MemoryDedupeStoreOptions}.
 * @returns a store to pass as the handlers' `dedupe` option.
 * @throws ValidationError for a bad `ttl` or `claimTtl`, or an unknown option.
 *
 * @example
 * ```ts
 * import { createWebhookHandler, memoryDedupeStore } from '@wallet/node/webhooks';
 *
 * export const POST = createWebhookHandler({
 *   secret: process.env.WALLET_WEBHOOK_SECRET!,
 *   dedupe: memoryDedupeStore(),
 *   async onEvent(event) {
 *     if (event.event === 'charge.success') console.log('paid', event.data.reference);
 *   },
 * });
 * ```
 */
export function memoryDedupeStore(options?: MemoryDedupeStoreOptions): WebhookDedupeStore {
  const { ttl, claimTtl } = checkStoreOptions(options, TTL_RULES, 'memoryDedupeStore');
  const entries = new Map<string, Entry>();
  let claims = 0;

  const live = (id: string, now: number): Entry | undefined => {
    const entry = entries.get(id);
    if (entry !== undefined && entry.until <= now) {
      entries.delete(id);
      return undefined;
    }
    return entry;
  };
  const sweep = (now: number): void => {
    for (const [id, entry] of entries) if (entry.until <= now) entries.delete(id);
  };

  return {
    claimTtl,
    claim(id: string): Promise<DedupeClaim> {
      const now = Date.now();
      if (++claims % SWEEP_EVERY === 0) sweep(now);
      const entry = live(id, now);
      if (entry !== undefined)
        return Promise.resolve({ status: entry.token === undefined ? 'done' : 'busy' });
      const token = claimToken();
      entries.set(id, { token, until: now + claimTtl });
      return Promise.resolve({ status: 'claimed', token });
    },
    done(id: string): Promise<void> {
      entries.set(id, { token: undefined, until: Date.now() + ttl });
      return Promise.resolve();
    },
    renew(id: string, token: string): Promise<boolean> {
      const now = Date.now();
      const entry = live(id, now);
      if (entry === undefined || entry.token !== token) return Promise.resolve(false);
      entry.until = now + claimTtl;
      return Promise.resolve(true);
    },
    release(id: string, token: string): Promise<void> {
      const entry = live(id, Date.now());
      if (entry !== undefined && entry.token === token) entries.delete(id);
      return Promise.resolve();
    },
  };
}
