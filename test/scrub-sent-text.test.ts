/**
 * The scrubber removes the key from what the service answers, but a string the merchant sent
 * (a reference that happens to hold 12 characters of the key) is theirs, not a leak: an answer
 * about it must still read as about it. Otherwise a charge the service carried out is reported
 * as "NOT carried out" (replay_mismatch) or as an answer about another order (reference_mismatch).
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

describe('a reference holding part of the key', () => {
  it('is dispatched and answered as itself, never as a replay of another request', async () => {
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
    expect(charge.reference).toBe(REFERENCE);
  });

  it('is verified as itself, while the key elsewhere in the answer is still removed', async () => {
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
    expect(tx.reference).toBe(REFERENCE);
    expect(tx.customer.name).toBe('Ada [redacted]');
    expect(JSON.stringify(tx)).not.toContain(TEST_KEY.slice(8));
  });

  it('a service echoing the key inside a reference the merchant never sent gets no pass', async () => {
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/:reference`, () =>
        HttpResponse.json({
          status: 'success',
          message: 'OK',
          data: { ...paid, reference: `x_${TEST_KEY.slice(8)}` },
        }),
      ),
    );
    const error = await mock
      .wallet()
      .charges.verify(REFERENCE)
      .catch((e: unknown) => e);
    expect(JSON.stringify(error)).not.toContain(TEST_KEY.slice(8));
    expect(String((error as Error).message)).not.toContain(FRAGMENT);
  });
});
