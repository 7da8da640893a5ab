/**
 * MSW must be a wall, not a sieve: with the merchant's base URL pointing at a real server (here a
 * loopback tripwire standing in for the live service), a request MSW does not handle fails the
 * test instead of reaching it. Under msw 2 and msw 3 alike (see msw3.ts): the same file, with
 * `listen()`'s option written each major's way.
 */
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';

const tripwire = await vi.hoisted(async () => {
  const { createServer } = await import('node:http');
  const hits: string[] = [];
  const service = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"status":"error","message":"tripwire"}');
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  process.env.WALLET_SECRET_KEY = 'sk_test_checkout';
  process.env.WALLET_BASE_URL = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  process.env.WALLET_TRANSPORT = 'fetch';
  return { hits, close: () => new Promise((resolve) => service.close(resolve)) };
});

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Wallet, WalletError } from '@wallet/node';

import { wallet } from './app/wallet.js';
import { mswMajor } from './msw3.js';

const base = process.env.WALLET_BASE_URL!;
const unhandled: string[] = [];
const server = setupServer();
server.events.on(
  'request:unhandled',
  ({ request }) => void unhandled.push(`${request.method} ${new URL(request.url).pathname}`),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
afterAll(async () => {
  server.close();
  await tripwire.close();
});

it('fails a call no handler answers, and the service never sees it', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined); // MSW prints each unhandled request
  const verify = wallet.charges.verify('order_1', { maxRetries: 0 });
  await expect(verify).rejects.toBeInstanceOf(WalletError);
  // MSW refuses it as a network failure: nothing was sent, so the outcome is known.
  await expect(verify).rejects.toMatchObject({ name: 'ConnectionError', outcomeUnknown: false });
  expect(unhandled).toEqual(['GET /v1/charges/verify/order_1']);
  expect(tripwire.hits).toEqual([]);
});

it('retries under the one key the SDK generated when the caller gave none', async () => {
  const keys: (string | null)[] = [];
  server.use(
    http.post(`${base}/v1/refunds`, ({ request }) => {
      keys.push(request.headers.get('x-idempotency-key'));
      if (keys.length < 3) return new HttpResponse(null, { status: 502, headers: { 'retry-after': '0' } });
      return HttpResponse.json({
        status: 'success',
        message: 'Refund processed',
        data: {
          refundReference: 'rf_1',
          amount: 100_000,
          currency: 'NGN',
          status: 'PROCESSED',
          refundedAt: '2026-11-21T13:00:00.000Z',
        },
      });
    }),
  );
  const { response } = await wallet.refunds.create({ reference: 'order_1', amount: 100_000 }).withResponse();
  expect(response.attempts).toBe(3);
  expect(keys).toEqual([response.idempotencyKey, response.idempotencyKey, response.idempotencyKey]);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(tripwire.hits).toEqual([]);
});

it('without WALLET_TRANSPORT=fetch, the default client goes past MSW (why the docs set it)', async () => {
  vi.stubEnv('WALLET_TRANSPORT', undefined);
  const direct = new Wallet();
  try {
    await expect(direct.charges.verify('order_2', { maxRetries: 0 })).rejects.toBeInstanceOf(WalletError);
  } finally {
    await direct.close();
  }
  expect(tripwire.hits).toEqual(['GET /v1/charges/verify/order_2']);
});

// What the guide warns of: msw 3 renamed the option, and takes the msw 2 name for nothing.
if (mswMajor() === 3)
  it("under msw 3, msw 2's onUnhandledRequest: 'error' is ignored: the call reaches the service", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined); // msw 3's default: warn, then send
    const msw2Spelling = { onUnhandledRequest: 'error' } as const;
    const seen = tripwire.hits.length;
    server.close();
    server.listen(msw2Spelling);
    try {
      await expect(wallet.charges.verify('order_3', { maxRetries: 0 })).rejects.toBeInstanceOf(WalletError);
    } finally {
      server.close();
      server.listen({ onUnhandledRequest: 'error' });
    }
    expect(tripwire.hits.slice(seen)).toEqual(['GET /v1/charges/verify/order_3']);
  });
