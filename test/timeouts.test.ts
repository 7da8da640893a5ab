import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionTimeoutError, RequestAbortedError } from '@wallet/node';
import { fakeClock, track } from './helpers/fake-clock.js';
import { json, loopback } from './helpers/loopback.js';
import { fail, http, HttpResponse, mockService, ok, paid } from './helpers/mock-service.js';

// The service answers about the reference asked (verify refuses any other).
const about = (url: string | undefined) => ({
  ...paid,
  reference: decodeURIComponent(String(url).split('/').pop() ?? ''),
});

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const never = () => new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A service on the fake clock that writes its headers at `headersAt` ms, then part of a body, then nothing. */
function stallingBody(headersAt: number) {
  return mockService(
    http.get('*/v1/charges/verify/:reference', async () => {
      await sleep(headersAt);
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(new TextEncoder().encode('{"status":"success","data":{')),
      });
      return new HttpResponse(stream, { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
}

beforeAll(async () => {
  // Loads the schemas with the real clock: afterwards a call awaits only its exchange.
  await mockService(
    http.get('*/v1/charges/verify/:reference', ({ params }) =>
      ok({ ...paid, reference: String(params.reference) }, null),
    ),
  )
    .wallet()
    .charges.verify('order_1042');
});

describe('timeouts (fake clock)', () => {
  it('times out when the headers never come, at the timeout of each attempt, and retries with the same key', async () => {
    const starts: number[] = [];
    const keys: (string | null)[] = [];
    const service = mockService(
      http.post('*/v1/refunds', ({ request }) => {
        starts.push(performance.now());
        keys.push(request.headers.get('x-idempotency-key'));
        return never();
      }),
    );
    fakeClock();
    const after = track(service.wallet({ timeout: 150, maxRetries: 1 }).refunds.create({ reference: 'r' }));
    expect((await after(149)).settled).toBe(false);
    expect(starts).toHaveLength(1);
    const result = await after(5_000); // the first attempt ends at 150, then one backoff and one more attempt
    expect(result.error).toBeInstanceOf(ConnectionTimeoutError);
    expect(result.error).toMatchObject({
      name: 'ConnectionTimeoutError',
      code: 'connection_timeout',
      attempts: 2,
      outcomeUnknown: true,
    });
    expect((result.error as Error).message).toContain('150 ms');
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(150);
    expect(result.at! - starts[1]!).toBe(150);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
  });

  it('one deadline covers headers and body: headers at 150 ms and a stalled body end at 200 ms, not 350', async () => {
    const service = stallingBody(150);
    fakeClock();
    const after = track(service.wallet({ timeout: 200 }).charges.verify('r'));
    expect((await after(199)).settled).toBe(false);
    const result = await after(1);
    expect(result.error).toBeInstanceOf(ConnectionTimeoutError);
    expect(result.error).toMatchObject({ attempts: 1 });
  });

  it('lets a per-call timeout override the client’s', async () => {
    const service = mockService(
      http.get('*/v1/charges/verify/:reference', async () => {
        await sleep(300);
        return ok({ ...paid, reference: 'r' }, null);
      }),
    );
    fakeClock();
    const wallet = service.wallet({ timeout: 100 });
    const cut = track(wallet.charges.verify('r'));
    expect((await cut(100)).error).toBeInstanceOf(ConnectionTimeoutError);
    const longer = track(wallet.charges.verify('r', { timeout: 2_000 }));
    expect(await longer(300)).toMatchObject({ settled: true, value: { status: 'SUCCESS' } });
  });
});

describe('timeouts over a real socket', () => {
  it('times out a body that trickles in byte by byte past the deadline', async () => {
    // Each byte comes well within undici's idle bodyTimeout: only the SDK's one deadline can end it.
    server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    await expect(server.wallet({ timeout: 300, maxRetries: 0 }).charges.verify('r')).rejects.toBeInstanceOf(
      ConnectionTimeoutError,
    );
  });
});

describe('abort', () => {
  it('stops at once when the signal fires mid-request, and never retries', async () => {
    const keys: (string | null)[] = [];
    const service = mockService(
      http.post('*/v1/charges/dispatch', ({ request }) => {
        keys.push(request.headers.get('x-idempotency-key'));
        return never();
      }),
    );
    fakeClock();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const after = track(
      service
        .wallet({ maxRetries: 2 })
        .charges.dispatch(
          { reference: 'r', bankId: 'b', authChannel: 'wallet_qr' },
          { signal: controller.signal, idempotencyKey: 'k9' },
        ),
    );
    expect((await after(99)).settled).toBe(false);
    const result = await after(1); // the moment it fires: no timer of the SDK's is waited for
    expect(result.error).toBeInstanceOf(RequestAbortedError);
    expect(result.error).toMatchObject({ code: 'request_aborted', idempotencyKey: 'k9' });
    await after(60_000);
    expect(keys).toEqual(['k9']);
  });

  it('sends nothing when the signal has already fired', async () => {
    server = await loopback((req, res) => json(res, 200, { status: 'success', data: about(req.url) }));
    await expect(server.wallet().charges.verify('r', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(server.received).toHaveLength(0);
  });

  it('cuts short the wait between retries', async () => {
    const service = mockService(
      http.get('*/v1/charges/verify/:reference', () =>
        fail(503, 'Down', { headers: { 'retry-after': '15' } }),
      ),
    );
    fakeClock();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const after = track(service.wallet({ maxRetries: 2 }).charges.verify('r', { signal: controller.signal }));
    expect((await after(149)).settled).toBe(false);
    const result = await after(1); // 150 ms into a 15 s Retry-After wait
    expect(result.error).toBeInstanceOf(RequestAbortedError);
    await after(60_000);
    expect(service.seen).toHaveLength(1);
  });
});
