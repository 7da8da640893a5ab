import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type WalletError } from '@wallet/node';
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
