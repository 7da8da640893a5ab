/**
 * The SDK scrubs its key from every answer, so a reference that holds 12 characters of the key
 * comes back scrubbed. That must never turn a charge the service carried out into a reported
 * replay of another request ("NOT carried out") or into an answer about another order: what was
 * sent is compared as scrubbed too. And the key stays out of everything the SDK hands back.
 */
import { describe, expect, it } from 'vitest';
import {
  BASE_URL,
  dispatched,
  http,
  HttpResponse,
  mockService,
  ok,
  paid,
  TEST_KEY,
} from './helpers/mock-service.js';

// 12 characters of the key's secret part, inside the merchant's own reference.
const FRAGMENT = TEST_KEY.slice(8, 20);
const REFERENCE = `order_${FRAGMENT}_7`;
const SCRUBBED = 'order_[redacted]_7';

describe('a reference holding part of the key', () => {
  it('is dispatched and answered, never refused as a replay of another request', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/charges/dispatch`, async ({ request }) => {
        const body = (await request.json()) as { reference: string };
        return ok({ ...dispatched, reference: body.reference });
      }),
    );
    const charge = await mock
      .wallet()
      .charges.dispatch(
        { reference: REFERENCE, bankId: 'bnk_01', authChannel: 'wallet_push' },
        { idempotencyKey: 'dispatch-order-7' },
      );
    expect(charge.reference).toBe(SCRUBBED);
    expect(JSON.stringify(charge)).not.toContain(FRAGMENT);
  });

  it('an answer about another reference is still a replay_mismatch', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/charges/dispatch`, () => ok({ ...dispatched, reference: 'order_other' })),
    );
    const error = await mock
      .wallet()
      .charges.dispatch(
        { reference: REFERENCE, bankId: 'bnk_01', authChannel: 'wallet_push' },
        { idempotencyKey: 'dispatch-order-7b' },
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'replay_mismatch' });
    expect(JSON.stringify(error)).not.toContain(FRAGMENT);
  });

  it('is verified as itself, the key removed from the whole answer', async () => {
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/:reference`, ({ params }) =>
        ok({
          ...paid,
          reference: params.reference,
          customer: { ...paid.customer, name: `Ada ${TEST_KEY.slice(8)}` },
        }),
      ),
    );
    const tx = await mock.wallet().charges.verify(REFERENCE);
    expect(tx.reference).toBe(SCRUBBED);
    expect(tx.customer.name).toBe('Ada [redacted]');
  });
});

describe('a short proxy password, which answers may hold by chance', () => {
  const proxy = 'http://shop:2026@proxy.corp:3128';

  it('never rewrites an answer: a charge paid in 2026 reads as the service sent it', async () => {
    const mock = mockService(http.get(`${BASE_URL}/v1/charges/verify/order_1042`, () => ok(paid)));
    const tx = await mock.wallet({ proxy }).charges.verify('order_1042');
    expect(tx).toEqual(paid);
  });

  it('is still scrubbed where it shows as a credential: user:password, or in Basic', async () => {
    const basic = Buffer.from('shop:2026').toString('base64');
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/order_1042`, () =>
        HttpResponse.json({ status: 'error', message: `via ${proxy} (Basic ${basic})` }, { status: 502 }),
      ),
    );
    const error = await mock
      .wallet({ proxy })
      .charges.verify('order_1042')
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('via http://[redacted]@proxy.corp:3128 (Basic [redacted])');
  });
});
