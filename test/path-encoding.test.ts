import { describe, expect, it } from 'vitest';
import { BASE_URL, http, mockService, ok, paid } from './helpers/mock-service.js';

describe('verify(reference) path encoding', () => {
  it.each([
    ['a/b', '/v1/charges/verify/a%2Fb'],
    ['../../refunds', '/v1/charges/verify/..%2F..%2Frefunds'],
    ['order?x=1', '/v1/charges/verify/order%3Fx%3D1'],
    ['order#frag', '/v1/charges/verify/order%23frag'],
    ['100%', '/v1/charges/verify/100%25'],
    ['order 1042', '/v1/charges/verify/order%201042'],
    ['ọjà-₦', '/v1/charges/verify/%E1%BB%8Dj%C3%A0-%E2%82%A6'],
    ['.hidden', '/v1/charges/verify/.hidden'],
  ])('keeps %j in one path segment of the verify endpoint', async (reference, path) => {
    const seenParams: string[] = [];
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/:reference`, ({ params }) => {
        seenParams.push(String(params.reference));
        return ok({ ...paid, reference }, null);
      }),
    );
    const tx = await mock.wallet().charges.verify(reference);
    expect(mock.seen[0]!.url.pathname).toBe(path);
    expect(seenParams).toEqual([reference]);
    expect(tx.reference).toBe(reference);
  });
});
