/**
 * A merchant's own MSW handlers in front of the SDK, set up exactly as docs/testing.md shows:
 * the app builds `new Wallet()` from env, and WALLET_TRANSPORT=fetch lets MSW see its requests.
 */
// #region msw-env
import { vi } from 'vitest';

vi.hoisted(() => {
  // Before the app's modules load (or use `test.env` in vitest.config.ts, or a .env.test file).
  process.env.WALLET_SECRET_KEY = 'sk_test_demo';
  process.env.WALLET_BASE_URL = 'https://api.wallet.example';
  process.env.WALLET_TRANSPORT = 'fetch';
});
// #endregion msw-env

// #region msw-own
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

import { startCheckout, type PaymentAttempt } from './app/checkout.js';

const base = process.env.WALLET_BASE_URL!;
const pushes: Request[] = [];
const recorded: PaymentAttempt[] = []; // your payment attempts table
const attempts = { insert: async (attempt: PaymentAttempt) => void recorded.push(attempt) };

const server = setupServer(
  http.post(`${base}/v1/charges/resolve-handle`, () =>
    HttpResponse.json({
      status: 'success',
      message: 'Customer resolved',
      data: {
        customer: { handle: '@ada', name: 'Ada Obi', avatarUrl: 'https://cdn.example/ada.png' },
        availableAuthChannels: [{ id: 'wallet_push', name: 'Wallet push', isRecommended: true }],
        linkedBanks: [
          {
            bankId: 'bnk_01',
            bankName: 'Zenith Bank',
            bankCode: '057',
            accountNumberMasked: '******1234',
            mandateStatus: 'ACTIVE',
          },
        ],
      },
    }),
  ),
  http.post(`${base}/v1/charges/dispatch`, ({ request }) => {
    pushes.push(request);
    return HttpResponse.json({
      status: 'success',
      message: 'Authorization prompt sent',
      data: {
        reference: 'order_1',
        status: 'PENDING_AUTHORIZATION',
        authChannel: 'wallet_push',
        expiresAt: '2026-11-21T10:05:00.000Z',
      },
    });
  }),
);
// #region msw-listen
beforeAll(() => server.listen({ onUnhandledRequest: 'error' })); // a call you did not mock fails
// #endregion msw-listen
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

it('sends the push for the order, under the key of the attempt it recorded first', async () => {
  const order = { id: 'order_1', handle: '@ada', amount: 500_000 };
  await expect(startCheckout(order, attempts)).resolves.toMatchObject({ status: 'PENDING_AUTHORIZATION' });
  const push = pushes.at(-1)!;
  expect(push.headers.get('x-idempotency-key')).toBe(recorded.at(-1)!.id);
  expect(await push.json()).toEqual({ reference: 'order_1', bankId: 'bnk_01', authChannel: 'wallet_push' });
});
// #endregion msw-own

// #region msw-retry
it('retries a dispatch the service failed, under the same idempotency key', async () => {
  const keys: (string | null)[] = [];
  server.use(
    http.post(`${base}/v1/charges/dispatch`, ({ request }) => {
      keys.push(request.headers.get('x-idempotency-key'));
      // The first attempt meets an outage; the SDK waits Retry-After and sends it again.
      if (keys.length === 1)
        return HttpResponse.json(
          { status: 'error', message: 'down' },
          { status: 503, headers: { 'retry-after': '0' } },
        );
      return undefined; // fall through to the handler above
    }),
  );
  await startCheckout({ id: 'order_1', handle: '@ada', amount: 500_000 }, attempts);
  const { id } = recorded.at(-1)!;
  expect(keys).toEqual([id, id]);
});
// #endregion msw-retry

it('sends the key, the JSON body and the SDK headers MSW handlers can assert on', () => {
  const push = pushes[0]!;
  expect(push.url).toBe(`${base}/v1/charges/dispatch`);
  expect(push.headers.get('authorization')).toBe('Bearer sk_test_demo');
  expect(push.headers.get('content-type')).toBe('application/json');
  expect(push.headers.get('user-agent')).toMatch(/^wallet-node\/\d/);
});
