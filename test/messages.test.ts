import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError } from '@wallet/node';
import { loopback } from './helpers/loopback.js';
import { BASE_URL, http, mockService, ok, resolved } from './helpers/mock-service.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('debug logs show parameters by allowlist', () => {
  it('mask handles, phones, names, descriptions and every metadata value', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/charges/resolve-handle`, () => ok(resolved)));
    const lines: string[] = [];
    const write = (m: string, d?: unknown) => lines.push(`${m} ${inspect(d, { depth: 9 })}`);
    const wallet = mock.wallet({
      logLevel: 'debug',
      logger: { debug: write, info: write, warn: write, error: write },
    });
    await wallet.charges.resolveHandle({ handle: '0800.000.0001', amount: 450_000, reference: 'order_1042' });
    const dispatchMock = mockService(
      http.post(`${BASE_URL}/v1/charges/dispatch`, () =>
        ok({
          reference: 'order_1042',
          status: 'PENDING_AUTHORIZATION',
          authChannel: 'wallet_push',
          expiresAt: 'x',
        }),
      ),
    );
    await dispatchMock
      .wallet({ logLevel: 'debug', logger: { debug: write, info: write, warn: write, error: write } })
      .charges.dispatch({
        reference: 'order_1042',
        bankId: 'bnk_01',
        authChannel: 'wallet_push',
        description: 'Jollof for Adaeze',
        metadata: { buyerPhone: '+2348031234567', customer: { fullName: 'Adaeze Okafor' }, tier: 3 },
      });
    const all = lines.join('\n');
    for (const secret of [
      '0800.000.0001',
      '2348031234567',
      'Adaeze Okafor',
      'Jollof for Adaeze',
      'tier: 3',
    ]) {
      expect(all).not.toContain(secret);
    }
    for (const shown of ['order_1042', '450000', 'bnk_01', 'wallet_push']) expect(all).toContain(shown);
  });
});

describe('messages in a merchant’s units and words', () => {
  it('a refund with no answer names the amount in Naira and Kobo and advises retrying with the key, never verify', async () => {
    server = await loopback((req) => req.socket.destroy());
    const error = await server
      .wallet({ maxRetries: 0 })
      .refunds.create({ reference: 'order_1042', amount: 450_000 }, { idempotencyKey: 'rf-9' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const message = (error as Error).message;
    expect(message).toContain('refund of ₦4,500.00 (450000 Kobo) on "order_1042"');
    expect(message).toContain("Retry with idempotencyKey 'rf-9'");
    expect(message).not.toContain('verify');
  });

  it('a dispatch with no answer advises confirming with charges.verify', async () => {
    server = await loopback((req) => req.socket.destroy());
    const error = await server
      .wallet({ maxRetries: 0 })
      .charges.dispatch({ reference: 'order_1042', bankId: 'b', authChannel: 'wallet_push' })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain('Confirm with charges.verify("order_1042")');
  });
});
