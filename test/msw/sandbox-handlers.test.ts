/**
 * The sandbox served by MSW, the way a merchant with an MSW setup uses it: their app unchanged,
 * their webhook route mounted as one more handler, no socket anywhere.
 */
import { vi } from 'vitest';

vi.hoisted(() => {
  process.env.WALLET_SECRET_KEY = 'sk_test_checkout';
  process.env.WALLET_BASE_URL = 'https://sandbox.wallet.test'; // the sandbox's default baseUrl
  process.env.WALLET_TRANSPORT = 'fetch';
  process.env.WALLET_WEBHOOK_SECRET = 'whsec_test';
});

// #region msw-sandbox
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandbox } from '@wallet/node/testing';

import { isPaid, startCheckout, type PaymentAttempt } from './app/checkout.js';
import { paidOrders, POST } from './app/webhook-route.js';
import { wallet } from './app/wallet.js';

const sandbox = createSandbox({
  webhookUrl: 'https://shop.example/webhooks/wallet',
  webhookSecret: process.env.WALLET_WEBHOOK_SECRET!,
});
const server = setupServer(
  ...sandbox.handlers, // the API, answered by the sandbox
  http.post('https://shop.example/webhooks/wallet', ({ request }) => POST(request)), // your route
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
const recorded: PaymentAttempt[] = []; // your payment attempts table
const attempts = { insert: async (attempt: PaymentAttempt) => void recorded.push(attempt) };

it('takes a payment end to end: push, approval, signed webhook, fulfilment, refund', async () => {
  await startCheckout({ id: 'order_7', handle: '@ada', amount: 500_000 }, attempts);
  expect(await isPaid('order_7')).toBe(false);

  const { webhook } = await sandbox.authorize('order_7'); // Ada approves on her phone
  expect(webhook?.delivered).toBe(true);
  expect(paidOrders.has('order_7')).toBe(true);

  await wallet.refunds.create({ reference: 'order_7', amount: 100_000 });
  expect(sandbox.debits).toHaveLength(1);
  expect(sandbox.refunds.map((r) => r.amount)).toEqual([100_000]);
});
// #endregion msw-sandbox

import { sendAttempt } from './app/checkout.js';

it('replays an attempt sent again with its stored key: one push, one charge', async () => {
  await startCheckout({ id: 'order_8', handle: '@ada', amount: 250_000 }, attempts);
  const attempt = recorded.at(-1)!;
  await sendAttempt(attempt); // after a timeout, or from the next process
  const dispatches = sandbox.requests.filter(
    (r) => r.path === '/v1/charges/dispatch' && r.idempotencyKey === attempt.id,
  );
  expect(dispatches.map((r) => r.replayed)).toEqual([false, true]);
  expect(sandbox.charges.filter((c) => c.reference === 'order_8')).toHaveLength(1);
});

it('refuses a forged webhook at the merchant route, through MSW too', async () => {
  const forged = await fetch('https://shop.example/webhooks/wallet', {
    method: 'POST',
    headers: { 'x-wallet-signature': 'ab'.repeat(64) },
    body: JSON.stringify({
      event: 'charge.success',
      data: { reference: 'order_9', amount: 1, customer: { handle: '@ada' } },
    }),
  });
  expect(forged.status).toBe(400);
  expect(paidOrders.has('order_9')).toBe(false);
});
