/**
 * Load: many verifies at high concurrency through the client's own pool against a loopback server
 * that counts sockets. Shared by the short form (npm test) and the long form (test:stress).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { sendJson, startServer, type TestServer } from './server.js';
import { SECRET_KEY } from './surfaces.js';
import { gc, pool, report, since } from './tools.js';

const transaction = (reference: string) => ({
  status: 'success',
  message: 'OK',
  data: {
    reference,
    amount: 500_000,
    currency: 'NGN',
    status: 'PENDING_AUTHORIZATION',
    channel: 'wallet_push',
    customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
  },
});

export interface LoadOptions {
  calls: number;
  concurrency: number;
  maxConnections: number;
  /** Largest allowed growth of the heap (after GC) between warm-up and the end, bytes. */
  heapBudget: number;
}

interface LoadFigures {
  calls: number;
  errors: number;
  firstError: string;
  callsPerSecond: number;
  heapAfterWarmupMiB: number;
  heapGrowthKiB: number;
  peakSockets: number;
  socketBound: number;
  handlesLeftAfterClose: string[];
}

const byType = (): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
};

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const server: TestServer = await startServer(
    (req, res) => sendJson(res, 200, transaction(decodeURIComponent(req.url.split('/').pop() ?? ''))),
    { keep: false },
  );
  const before = byType();
  // The bound under test is the option itself: a client that refused it fails the suite here.
  const wallet = new Wallet({
    apiKey: SECRET_KEY,
    baseUrl: server.url,
    maxConnections: options.maxConnections,
  });
  let errors = 0;
  let firstError = '';
  const verify = async (i: number): Promise<void> => {
    try {
      const tx = await wallet.charges.verify(`order_${i}`);
      if (tx.reference !== `order_${i}`) throw new Error(`wrong transaction ${tx.reference}`);
    } catch (error) {
      errors++;
      firstError ||= String(error);
    }
  };
  const warmup = Math.ceil(options.calls / 10);
  await pool(warmup, options.concurrency, verify);
  gc();
  const heapAfterWarmup = process.memoryUsage().heapUsed;
  const started = performance.now();
  await pool(options.calls - warmup, options.concurrency, (i) => verify(i + warmup));
  const elapsed = since(started);
  gc();
  const heapGrowth = process.memoryUsage().heapUsed - heapAfterWarmup;
  await wallet.close();
  await until(() => server.sockets().open === 0, 2_000);
  const after = byType();
  const left = [...after]
    .filter(([type, n]) => n > (before.get(type) ?? 0))
    .map(([type, n]) => `${type}+${n - (before.get(type) ?? 0)}`);
  const peakSockets = server.sockets().peak;
  await server.close();
  return {
    calls: options.calls,
    errors,
    firstError,
    callsPerSecond: Math.round(((options.calls - warmup) / Math.max(elapsed, 1)) * 1000),
    heapAfterWarmupMiB: Math.round(heapAfterWarmup / 2 ** 20),
    heapGrowthKiB: Math.round(heapGrowth / 1024),
    peakSockets,
    socketBound: options.maxConnections,
    handlesLeftAfterClose: left,
  };
}

export function loadSuite(name: string, options: LoadOptions): void {
  describe(`${name}: ${options.calls} verifies at concurrency ${options.concurrency}`, () => {
    let f: LoadFigures;
    beforeAll(async () => {
      f = await runLoad(options);
      report(name, { ...options, ...f });
    }, 600_000);

    it('every verify succeeds with its own transaction (0 errors)', () => {
      expect(f.errors, f.firstError).toBe(0);
    });

    it('the heap is flat after GC: no memory kept per call', () => {
      expect(f.heapGrowthKiB * 1024).toBeLessThan(options.heapBudget);
    });

    it('connections stay bounded by maxConnections (counted on the server side)', () => {
      // Fewer connections than calls at once, so the bound is the pool's, not the concurrency's.
      expect(options.maxConnections).toBeLessThan(options.concurrency);
      expect(f.peakSockets).toBeGreaterThan(0);
      expect(f.peakSockets).toBeLessThanOrEqual(f.socketBound);
    });

    it('close() leaves no handle open (process.getActiveResourcesInfo)', () => {
      expect(f.handlesLeftAfterClose).toEqual([]);
    });
  });
}
