import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '@wallet/node';
import { BASE_URL, http, mockService, ok, paid, refunded } from './helpers/mock-service.js';

// Money never comes back negative: a negative amount is a broken (or forged) answer, never a
// typed success a merchant would book.
describe('negative amounts in responses', () => {
  it.each([
    ['amount', { ...paid, amount: -500_000 }],
    ['fee', { ...paid, fee: -10_000 }],
    ['netAmount', { ...paid, netAmount: -490_000 }],
  ])('verify with a negative %s is a ResponseValidationError naming the field', async (field, data) => {
    const mock = mockService(http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok(data)));
    const error = (await mock
      .wallet()
      .charges.verify('r')
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues).toEqual([
      { path: `data.${field}`, message: 'must not be negative (an amount in Kobo)' },
    ]);
    expect(error.body).toMatchObject({ data: { [field]: data[field as keyof typeof data] } });
  });

  it('a refund answered with amount -100 is a ResponseValidationError', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/refunds`, () => ok({ ...refunded, amount: -100 })));
    const error = await mock
      .wallet()
      .refunds.create({ reference: 'r', amount: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toBe('data.amount');
  });

  it('zero amounts and fees still pass (a free charge, a fee waived)', async () => {
    const data = { ...paid, reference: 'r', fee: 0, netAmount: paid.amount };
    const mock = mockService(http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok(data)));
    await expect(mock.wallet().charges.verify('r')).resolves.toMatchObject({ fee: 0 });
  });
});
