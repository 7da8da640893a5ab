import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionTimeoutError } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { paid, refunded } from './helpers/mock-service.js';

// The service answers about the reference asked (verify refuses any other).
const about = (url: string | undefined) => ({
  ...paid,
  reference: decodeURIComponent(String(url).split('/').pop() ?? ''),
});

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
      setTimeout(() => json(res, 200, { status: 'success', data: about(req.url) }), 20);
    });
    const wallet = server.wallet({ maxConnections: 4 });
    const calls = Array.from({ length: 40 }, (_, i) => wallet.charges.verify(`order_${i}`));
    expect(await Promise.all(calls)).toHaveLength(40);
    expect(server.received).toHaveLength(40);
    expect(ports.size).toBeGreaterThan(0);
    expect(ports.size).toBeLessThanOrEqual(4);
  });

  it('keeps one keep-alive connection for calls a merchant awaits one after another', async () => {
    // undici frees a socket one event-loop turn after its answer; a call made in between used to
    // take a second socket, so sequential calls alternated between two (1, 2, 1, 2).
    const ports: (number | undefined)[] = [];
    server = await loopback((req, res) => {
      ports.push(req.socket.remotePort);
      json(res, 200, { status: 'success', data: req.method === 'POST' ? refunded : about(req.url) });
    });
    const wallet = server.wallet();
    for (let i = 0; i < 8; i++) await wallet.charges.verify(`order_${i}`);
    for (let i = 0; i < 4; i++) await wallet.refunds.create({ reference: `order_${i}` });
    expect(ports).toHaveLength(12);
    expect(new Set(ports).size).toBe(1);
  });

  it("answers calls while a merchant's test fakes the clock, setImmediate included", async () => {
    // The wait for undici to free the socket runs on Node's own timer: a faked global
    // setImmediate (vitest's and sinon's default) used to hold every answer until the test ended.
    server = await loopback((req, res) => json(res, 200, { status: 'success', data: about(req.url) }));
    const wallet = server.wallet();
    await wallet.charges.verify('order_0');
    vi.useFakeTimers();
    try {
      expect(vi.isFakeTimers()).toBe(true);
      for (let i = 1; i < 4; i++)
        expect(await wallet.charges.verify(`order_${i}`)).toEqual({ ...paid, reference: `order_${i}` });
    } finally {
      vi.useRealTimers();
    }
    expect(server.received).toHaveLength(4);
  });

  it("answers calls under jest's default fake timers, queueMicrotask included", async () => {
    server = await loopback((req, res) => json(res, 200, { status: 'success', data: about(req.url) }));
    const wallet = server.wallet();
    await wallet.charges.verify('order_0');
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'Date'],
    });
    try {
      expect(await wallet.charges.verify('order_1')).toEqual({ ...paid, reference: 'order_1' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses no more sockets than calls in flight when each caller awaits its calls in turn', async () => {
    const ports = new Set<number | undefined>();
    server = await loopback((req, res) => {
      ports.add(req.socket.remotePort);
      json(res, 200, { status: 'success', data: about(req.url) });
    });
    const wallet = server.wallet();
    const caller = async (n: number): Promise<void> => {
      for (let i = 0; i < 10; i++) await wallet.charges.verify(`order_${n}_${i}`);
    };
    await Promise.all([caller(1), caller(2), caller(3)]);
    expect(server.received).toHaveLength(30);
    expect(ports.size).toBeLessThanOrEqual(3);
  });

  it('times a call out at its own deadline while it waits for a pooled connection', async () => {
    // The only connection is held until the test lets it go: the queued call cannot get it, so
    // only its own deadline can end it, and it ends having sent nothing.
    let release: () => void = () => undefined;
    let held: () => void = () => undefined;
    const holdingConnection = new Promise<void>((resolve) => (held = resolve));
    server = await loopback((req, res) => {
      const answer = () => json(res, 200, { status: 'success', data: about(req.url) });
      if (!req.url?.endsWith('/slow')) return answer();
      release = answer;
      held();
    });
    const wallet = server.wallet({ maxConnections: 1, maxRetries: 0 });
    const holding = wallet.charges.verify('slow', { timeout: 60_000 });
    await holdingConnection;
    try {
      // A POST: its outcome would be unknown had any byte of it been written.
      const queued = await wallet.refunds
        .create({ reference: 'order_1042' }, { timeout: 300 })
        .catch((e: unknown) => e);
      expect(queued).toBeInstanceOf(ConnectionTimeoutError);
      expect(queued).toMatchObject({ attempts: 1, outcomeUnknown: false });
      expect(server.received.map((r) => r.url)).toEqual(['/v1/charges/verify/slow']);
    } finally {
      release();
      await holding;
    }
  });
});
