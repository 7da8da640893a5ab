/**
 * A 404 that is not the service's error envelope (a wrong base URL, a proxy or gateway that does
 * not forward the path) is `endpoint_not_found`, with a message about the base URL or the proxy,
 * never mistaken for an unknown reference (`not_found`), which the guide says to dispatch again.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { NotFoundError } from '../src/errors/call.js';
import { BASE_URL, fail, mockService } from './helpers/mock-service.js';

function verifyAnswered(answer: () => Response) {
  const mock = mockService(http.get(`${BASE_URL}/v1/charges/verify/:reference`, answer));
  return mock
    .wallet()
    .charges.verify('order_1042')
    .catch((e: unknown) => e);
}

describe('a 404 on a call', () => {
  it.each([
    [
      'an HTML page from a web server',
      () => new HttpResponse('<h1>404 Not Found</h1>nginx', { status: 404 }),
    ],
    ['an empty body', () => new HttpResponse(null, { status: 404 })],
    [
      'JSON that is not the envelope',
      () => HttpResponse.json({ error: 'Not Found', path: '/v1/v1' }, { status: 404 }),
    ],
    [
      'a JSON envelope whose status is not "error"',
      () => HttpResponse.json({ status: 404 }, { status: 404 }),
    ],
  ])(
    'answered with %s is NotFoundError endpoint_not_found, pointing at the base URL or proxy',
    async (_, answer) => {
      const error = (await verifyAnswered(answer)) as NotFoundError;
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.code).toBe('endpoint_not_found');
      expect(error.status).toBe(404);
      expect(error.message).toContain('baseUrl');
      expect(error.message).toContain('proxy');
      expect(error.message).toContain('without /v1');
      expect(error.message).toMatch(/^No Wallet endpoint at GET \/v1\/charges\/verify\//);
      expect(error.endpoint).toMatch(/^GET \/v1\/charges\/verify\//);
    },
  );

  it("answered with the service's error envelope is NotFoundError not_found, with the service's message", async () => {
    const error = (await verifyAnswered(() =>
      fail(404, 'No charge with reference order_1042'),
    )) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('No charge with reference order_1042');
  });
});
