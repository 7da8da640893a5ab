import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionTimeoutError, RequestAbortedError } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { paid } from './helpers/mock-service.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('timeouts', () => {
  it('times out when the headers never come, and retries with the same key', async () => {
    server = await loopback(() => undefined);
    const started = performance.now();
    const error = (await server
      .wallet({ timeout: 150, maxRetries: 1 })
      .refunds.create({ reference: 'r' })
      .catch((e: unknown) => e)) as ConnectionTimeoutError;
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({
      name: 'ConnectionTimeoutError',
      code: 'connection_timeout',
      attempts: 2,
      outcomeUnknown: true,
    });
    expect(error.message).toContain('150 ms');
    expect(performance.now() - started).toBeLessThan(2_000);
    const keys = server.received.map((r) => r.headers['x-idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('times out when the body stalls after the headers: one deadline covers the whole body', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","data":{');
    });
    const started = performance.now();
    await expect(server.wallet({ timeout: 200, maxRetries: 0 }).charges.verify('r')).rejects.toBeInstanceOf(
      ConnectionTimeoutError,
    );
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('times out a body that trickles in byte by byte past the deadline', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    await expect(server.wallet({ timeout: 300, maxRetries: 0 }).charges.verify('r')).rejects.toBeInstanceOf(
      ConnectionTimeoutError,
    );
  });

  it('lets a per-call timeout override the client’s', async () => {
    server = await loopback((_req, res) =>
      setTimeout(() => json(res, 200, { status: 'success', data: paid }), 300),
    );
    const wallet = server.wallet({ timeout: 100, maxRetries: 0 });
    await expect(wallet.charges.verify('r', { timeout: 2_000 })).resolves.toMatchObject({
      status: 'SUCCESS',
    });
  });
});

describe('abort', () => {
  it('stops at once when the signal fires mid-request, and never retries', async () => {
    server = await loopback(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const error = await server
      .wallet({ maxRetries: 2 })
      .charges.dispatch(
        { reference: 'r', bankId: 'b', authChannel: 'wallet_qr' },
        { signal: controller.signal, idempotencyKey: 'k9' },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ code: 'request_aborted', idempotencyKey: 'k9' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.received).toHaveLength(1);
  });

  it('sends nothing when the signal has already fired', async () => {
    server = await loopback((_req, res) => json(res, 200, { status: 'success', data: paid }));
    await expect(server.wallet().charges.verify('r', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(server.received).toHaveLength(0);
  });

  it('cuts short the wait between retries', async () => {
    server = await loopback((_req, res) =>
      json(res, 503, { status: 'error', message: 'Down' }, { 'retry-after': '15' }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = performance.now();
    await expect(server.wallet().charges.verify('r', { signal: controller.signal })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.received).toHaveLength(1);
  });
});
