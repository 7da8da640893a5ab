import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionTimeoutError } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { paid } from './helpers/mock-service.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the client's own connection pool", () => {
  it('opens at most maxConnections sockets to one origin however many calls are in flight', async () => {
    // Each socket the client opens shows up as one remote port on the server.
    const ports = new Set<number | undefined>();
    server = await loopback((req, res) => {
      ports.add(req.socket.remotePort);
      setTimeout(() => json(res, 200, { status: 'success', data: paid }), 20);
    });
    const wallet = server.wallet({ maxConnections: 4 });
    const calls = Array.from({ length: 40 }, (_, i) => wallet.charges.verify(`order_${i}`));
    expect(await Promise.all(calls)).toHaveLength(40);
    expect(server.received).toHaveLength(40);
    expect(ports.size).toBeGreaterThan(0);
    expect(ports.size).toBeLessThanOrEqual(4);
  });

  it('times a call out at its own deadline while it waits for a pooled connection', async () => {
    // The only connection is held for 3 s; the queued call must not wait for it to come free.
    server = await loopback((req, res) => {
      const delay = req.url?.endsWith('/slow') ? 3_000 : 0;
      setTimeout(() => json(res, 200, { status: 'success', data: paid }), delay);
    });
    const wallet = server.wallet({ maxConnections: 1, maxRetries: 0 });
    const holding = wallet.charges.verify('slow', { timeout: 10_000 });
    const started = performance.now();
    const queued = await wallet.charges.verify('order_1042', { timeout: 300 }).catch((e: unknown) => e);
    expect(queued).toBeInstanceOf(ConnectionTimeoutError);
    expect(performance.now() - started).toBeLessThan(2_000);
    await holding;
  });
});
