/**
 * When zod's schemas file cannot load (a bundle that left it out, a process out of file handles),
 * a value its guard doubts still ends in the SDK's own typed error: parameters in a
 * ValidationError with nothing sent; an answer in a ResponseValidationError that keeps the call's
 * account, so a refund whose answer could not be checked says its outcome is unknown and names the
 * key to retry it with, never a bare Error a merchant would take as "not charged".
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResponseValidationError, ValidationError } from '@wallet/node';
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

describe('a value its guard doubts while the schemas cannot load', () => {
  it('ends a refund whose answer could not be checked with its outcome unknown and its key', async () => {
    server = await loopback((req, res) =>
      json(res, 200, { status: 'success', data: { ...refunded, amount: -100_000 } }),
    );
    const error = await server
      .wallet({ maxRetries: 0 })
      .refunds.create({ reference: 'order_1042' }, { idempotencyKey: 'refund-attempt-7' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'refund-attempt-7', status: 200 });
    expect((error as Error).message).toContain("could not be checked: the SDK's schemas file did not load");
    expect(server.received).toHaveLength(1);
  });

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
    // Calls that pass their guards never need the schemas.
    await expect(wallet.refunds.create({ reference: 'order_1042' })).resolves.toEqual(refunded);
  });
});
