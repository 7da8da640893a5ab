/**
 * A redis-server for one test file and connected clients of both packages on it: started before the
 * file's tests, every client closed and the server stopped after them.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';

import type { RedisClientLike } from '../../src/webhooks.js';
import { startRedis, type RedisServer } from './server.js';

/** The two client packages a merchant may pass. */
export type RedisClientKind = 'redis' | 'ioredis';

/** The file's Redis: its URL, and clients connected to it (or to another URL). */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` of the file's server. */
  readonly url: string;
  /** A connected client of `kind`, closed after the file's tests. */
  connect(kind: RedisClientKind, url?: string): Promise<RedisClientLike>;
}

/** Starts a redis-server for the calling test file (in its `beforeAll`) and cleans up after it. */
export function useRedis(): TestRedis {
  let server: RedisServer | undefined;
  const clients: { close(): Promise<unknown> }[] = [];
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server?.stop();
  });
  const url = (): string => {
    if (server === undefined) throw new Error('useRedis(): the server starts in beforeAll');
    return server.url;
  };
  return {
    get url() {
      return url();
    },
    async connect(kind, at = url()) {
      if (kind === 'ioredis') {
        const client = new Redis(at, { maxRetriesPerRequest: 1, lazyConnect: true });
        client.on('error', () => undefined); // reconnect noise once a test stops the server
        await client.connect();
        clients.push({ close: async () => client.disconnect() });
        return client;
      }
      const client = await createClient({ url: at })
        .on('error', () => undefined)
        .connect();
      clients.push({ close: async () => client.destroy() });
      return client;
    },
  };
}
