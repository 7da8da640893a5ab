/**
 * One instance of a merchant's webhook route, in its own process: a node:http server with
 * `createNodeWebhookHandler` deduplicating on Redis through the client named on the command line.
 * It tells its parent (over IPC) its port, and each time `onEvent` starts and finishes.
 *
 * Usage (forked by test/redis/fleet.ts): webhook-worker.ts <redis-url> <redis|ioredis> <claimTtl> [hang-reference]
 * An event whose reference is `hang-reference` never finishes, so the parent can kill the worker mid-event.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Redis } from 'ioredis';
import { createClient } from 'redis';

import { createNodeWebhookHandler, redisDedupeStore } from '../../src/webhooks.js';
import type { RedisClientLike } from '../../src/webhooks.js';
import { FLEET_SECRET, type WorkerMessage } from './fleet-protocol.js';

const [url = '', kind = 'redis', claimTtl = '60000', hang = ''] = process.argv.slice(2);
const tell = (message: WorkerMessage): void => void process.send?.(message);

const client: RedisClientLike =
  kind === 'ioredis'
    ? new Redis(url, { maxRetriesPerRequest: 1 }).on('error', () => undefined)
    : await createClient({ url })
        .on('error', () => undefined)
        .connect();

const handler = createNodeWebhookHandler({
  secret: FLEET_SECRET,
  dedupe: redisDedupeStore(client, { claimTtl: Number(claimTtl), prefix: 'fleet:', timeout: 500 }),
  onError: () => undefined,
  async onEvent(event) {
    if (event.event !== 'charge.success') return;
    const { reference } = event.data;
    tell({ type: 'started', reference, pid: process.pid });
    if (reference === hang) await new Promise(() => undefined);
    // Long enough for concurrent duplicates to overlap on different workers.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 8));
    tell({ type: 'ran', reference, pid: process.pid });
  },
});

const server = createServer((req, res) => void handler(req, res));
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  tell({ type: 'ready', port: (server.address() as AddressInfo).port, pid: process.pid });
});
process.on('disconnect', () => process.exit(0));
