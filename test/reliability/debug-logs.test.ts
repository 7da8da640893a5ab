/**
 * Debug logs show parameters by allowlist: reference, amount, channel and bank id as they are;
 * handles, phone numbers, names, descriptions, reasons and every metadata value masked, at every
 * level, on success and on failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { sendJson, startServer, type TestServer } from './helpers/server.js';
import { recordingLogger, SECRET_KEY } from './helpers/surfaces.js';

const PERSONAL = [
  '+2348012345678',
  '0800.000.0001',
  'Chiamaka Okonkwo-Adebayo',
  'Order for Chiamaka at 12 Allen Avenue',
  'customer changed her mind',
  'buyer-phone-08031234567',
  'tenant-secret-value',
];

describe('debug logs mask personal data by allowlist', () => {
  let server: TestServer;
  let status = 200;
  beforeAll(async () => {
    server = await startServer((req, res) =>
      status === 200
        ? sendJson(res, 200, {
            status: 'success',
            data: { refundReference: 'rf_1', amount: 100, currency: 'NGN', status: 'PROCESSED' },
          })
        : sendJson(res, status, { status: 'error', message: 'no' }),
    );
  });
  afterAll(() => server.close());

  for (const answer of [200, 503, 422]) {
    it(`no handle, phone, name, description, reason or metadata value in any log line (server answers ${answer})`, async () => {
      status = answer;
      const { sink, lines } = recordingLogger();
      const wallet = new Wallet({
        apiKey: SECRET_KEY,
        baseUrl: server.url,
        logger: sink,
        logLevel: 'debug',
        maxRetries: 1,
        timeout: 1_000,
      });
      const settle = (p: PromiseLike<unknown>) => Promise.resolve(p).catch(() => undefined);
      await settle(
        wallet.charges.resolveHandle({ handle: PERSONAL[0]!, amount: 500_000, reference: 'order_77' }),
      );
      await settle(
        wallet.charges.resolveHandle({ handle: PERSONAL[1]!, amount: 500_000, reference: 'order_77' }),
      );
      await settle(
        wallet.charges.dispatch({
          reference: 'order_77',
          bankId: 'bnk_01',
          authChannel: 'wallet_push',
          description: PERSONAL[3]!,
          metadata: { buyerPhone: PERSONAL[5]!, customer: { fullName: PERSONAL[2]! }, tags: [PERSONAL[6]!] },
        }),
      );
      await settle(wallet.refunds.create({ reference: 'order_77', amount: 100, reason: PERSONAL[4]! }));
      await wallet.close();
      const text = lines.map((l) => l.text).join('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const value of PERSONAL) expect(text).not.toContain(value);
      // The allowlisted fields stay readable, so the logs remain useful.
      expect(text).toContain('order_77');
      expect(text).toContain('bnk_01');
    });
  }
});
