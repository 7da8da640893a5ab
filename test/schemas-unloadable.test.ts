/**
 * When zod's schemas file cannot load (a bundle that left it out, a process out of file handles),
 * a call ends in the SDK's own typed error, a ValidationError that says nothing was sent (it was
 * not: every parameter is checked by zod before sending), never a bare Error.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { refunded } from './helpers/mock-service.js';

vi.mock('../src/schemas/index.js', () => {
  throw Object.assign(new Error('Too many open files'), { code: 'EMFILE' });
});

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a call while the schemas cannot load', () => {
  it('refuses parameters it cannot check, sending nothing', async () => {
    server = await loopback((req, res) => json(res, 200, { status: 'success', data: refunded }));
    const wallet = server.wallet();
    const error = await wallet.refunds
      .create({ reference: 'order_1042', amount: -5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('Nothing was sent');
    expect((error as Error).message).toContain('could not be checked');
    expect(server.received).toHaveLength(0);
  });

  it('refuses valid parameters too, with their key and outcome known, and asks again on the next call', async () => {
    server = await loopback((req, res) => json(res, 200, { status: 'success', data: refunded }));
    const wallet = server.wallet();
    for (let call = 0; call < 2; call++) {
      const error = await wallet.refunds
        .create({ reference: 'order_1042' }, { idempotencyKey: 'refund-attempt-7' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ outcomeUnknown: false });
      expect((error as Error).message).toContain("could not be checked: the SDK's schemas file did not load");
    }
    expect(server.received).toHaveLength(0);
  });
});
