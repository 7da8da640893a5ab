import { afterEach, describe, expect, it } from 'vitest';
import * as undici7 from 'undici';
import { ApiError, type Dispatcher, type WalletError } from '@wallet/node';
import { loopback } from './helpers/loopback.js';
import { caught as caughtAs } from './helpers/caught.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const caught = (p: Promise<unknown>) => caughtAs<WalletError & ApiError>(p);
const refund = { reference: 'order_1042', amount: 450_000 };

describe.each([
  ['undici', {}],
  ['fetch', { fetch: (input: string, init: RequestInit) => fetch(input, init) }],
])('a 3xx after a POST, never followed (%s)', (_name, transport) => {
  it('303: the action was carried out, so the outcome is unknown until verified', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(303, { location: '/v1/refunds/rfd_1?session=secret-token' });
      res.end();
    });
    const error = await caught(server.wallet(transport).refunds.create(refund, { idempotencyKey: 'rf-303' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 303, code: 'see_other', outcomeUnknown: true, attempts: 1 });
    expect(error!.message).toContain('HTTP 303');
    expect(error!.message).toContain('the action was carried out');
    expect(error!.message).toContain("idempotencyKey 'rf-303'");
    expect(error!.message).toContain('/v1/refunds/rfd_1');
    expect(error!.message).not.toContain('secret-token');
    expect(server.received).toHaveLength(1);
  });

  it.each([301, 302, 307, 308])(
    '%i: a redirect refused, saying where it pointed (no query)',
    async (status) => {
      server = await loopback((_req, res) => {
        res.writeHead(status, { location: 'https://elsewhere.example/v1/refunds?token=abc#frag' });
        res.end();
      });
      const error = await caught(server.wallet(transport).refunds.create(refund));
      expect(error).toMatchObject({ status, code: 'redirect_refused', outcomeUnknown: false });
      expect(error!.message).toContain(`HTTP ${status}`);
      expect(error!.message).toContain('refused the redirect');
      expect(error!.message).toContain('pointing to https://elsewhere.example/v1/refunds.');
      expect(error!.message).not.toMatch(/token=abc|frag/);
      expect(server.received).toHaveLength(1);
    },
  );

  it('a 303 to a GET is a redirect refused, not an action', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(303, { location: '/elsewhere' });
      res.end();
    });
    const error = await caught(server.wallet(transport).charges.verify('order_1042'));
    expect(error).toMatchObject({ status: 303, code: 'redirect_refused', outcomeUnknown: false });
  });
});

describe("a merchant's dispatcher composed with undici's redirect interceptor", () => {
  const following = () =>
    new undici7.Agent().compose(undici7.interceptors.redirect({ maxRedirections: 3 })) as Dispatcher;

  it('a 307 to a refund: refused, the refund never sent again to where it pointed', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const wallet = server.wallet({ dispatcher: following(), maxRetries: 0 });
    const error = await caught(wallet.refunds.create(refund));
    expect(error).toMatchObject({ status: 307, code: 'redirect_refused', outcomeUnknown: false });
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/refunds']);
  });

  it('a 302 to a verify: refused, not followed', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(302, { location: '/v1/charges/verify/order_9999' });
      res.end();
    });
    const wallet = server.wallet({ dispatcher: following(), maxRetries: 0 });
    const error = await caught(wallet.charges.verify('order_1042'));
    expect(error).toMatchObject({ status: 302, code: 'redirect_refused' });
    expect(server.received).toHaveLength(1);
  });
});
