/**
 * The checkout docs/testing.md shows (test/msw/app/checkout.ts: a key per payment attempt, stored
 * before sending), run unchanged against a server that replays saved answers as the service's
 * specification says, with its answers lost the way a crash loses them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionError } from '@wallet/node';
import { TEST_KEY } from '../helpers/mock-service.js';
import { specServer } from '../helpers/spec-server.js';
import type * as Checkout from '../msw/app/checkout.js';
import type { PaymentAttempt } from '../msw/app/checkout.js';

let server: Awaited<ReturnType<typeof specServer>>;
let app: typeof Checkout;
const recorded: PaymentAttempt[] = [];
const attempts = { insert: async (attempt: PaymentAttempt) => void recorded.push(attempt) };

beforeAll(async () => {
  server = await specServer();
  // The app builds `new Wallet()` from the environment, as in production.
  vi.stubEnv('WALLET_SECRET_KEY', TEST_KEY);
  vi.stubEnv('WALLET_BASE_URL', server.url);
  vi.resetModules();
  app = await import('../msw/app/checkout.js');
});
afterAll(async () => {
  await (await import('../msw/app/wallet.js')).wallet.close();
  vi.unstubAllEnvs();
  await server.close();
});

describe('a key per payment attempt, against the spec-following server', () => {
  it('an attempt whose every answer was lost is sent again with its stored key: one push', async () => {
    const before = server.received.length;
    // resolve-handle, then the dispatch and both of the SDK's retries: each acted on, none answered.
    for (const n of [2, 3, 4]) server.loseAnswer(before + n);
    const order = { id: 'order_lost', handle: '@ada', amount: 500_000 };
    const crashed = await app.startCheckout(order, attempts).catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(ConnectionError);
    expect(crashed).toMatchObject({ outcomeUnknown: true, idempotencyKey: recorded.at(-1)!.id });
    expect(server.dispatches).toBe(1); // the retries were replays
    // The next process finishes the stored attempt: the saved answer, no second push.
    await expect(app.sendAttempt(recorded.at(-1)!)).resolves.toMatchObject({
      reference: 'order_lost',
      status: 'PENDING_AUTHORIZATION',
    });
    expect(server.dispatches).toBe(1);
  });

  it('a second attempt for the same order is its own row and key: carried out, not replayed', async () => {
    const order = { id: 'order_qr', handle: '@ada', amount: 500_000 };
    const dispatches = server.dispatches;
    await app.startCheckout(order, attempts);
    const first = recorded.at(-1)!;
    // The push went unanswered; the customer asks for a QR code instead.
    await expect(app.startCheckout(order, attempts, 'wallet_qr')).resolves.toMatchObject({
      authChannel: 'wallet_qr',
      status: 'PENDING_SCAN',
    });
    expect(server.dispatches - dispatches).toBe(2);
    expect(server.charges.get('order_qr')).toMatchObject({ channel: 'wallet_qr' });
    // A key per order would send the QR under the push's key: refused, nothing sent.
    await expect(app.sendAttempt({ ...first, authChannel: 'wallet_qr' })).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(server.dispatches - dispatches).toBe(2);
  });
});
