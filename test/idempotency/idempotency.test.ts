import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, IdempotencyError, isWalletError } from '@wallet/node';
import { specServer } from '../helpers/spec-server.js';
import { json, loopback } from '../helpers/loopback.js';
import { refunded } from '../helpers/mock-service.js';
import { finishPendingRefunds, refund, type RefundRow, type RefundTable } from './crash-safe-refund.js';
import { caught } from '../helpers/caught.js';

let server: Awaited<ReturnType<typeof specServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a key reused for another operation never passes as success', () => {
  it('a second partial refund under the first one’s key is a replay_mismatch, not a silent success', async () => {
    server = await specServer();
    server.paid('order_1042', 500_000);
    // Two processes (or a restart) each using a per-order key: the second client never saw it.
    const first = server.wallet();
    await first.refunds.create(
      { reference: 'order_1042', amount: 100_000 },
      { idempotencyKey: 'refund:order_1042' },
    );
    const error = await caught(
      server
        .wallet()
        .refunds.create({ reference: 'order_1042', amount: 50_000 }, { idempotencyKey: 'refund:order_1042' }),
    );
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error).toMatchObject({
      name: 'IdempotencyError',
      code: 'replay_mismatch',
      idempotencyKey: 'refund:order_1042',
      outcomeUnknown: false,
      received: { amount: 100_000, refundReference: 'rfd_1' },
    });
    expect(error!.message).toContain('NOT carried out');
    expect(error!.message).toContain('fresh key per operation');
    expect(error!.message).toContain('amount: sent 50000, answered 100000');
    // The customer got one refund: the 50,000 was never paid, and the SDK said so.
    expect(server.refunds.map((r) => r.amount)).toEqual([100_000]);
  });

  it('a dispatch switched from push to QR under the same key is a replay_mismatch', async () => {
    server = await specServer();
    const wallet = server.wallet();
    await wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_7' });
    const params = { reference: 'order_7', bankId: 'bnk_01' } as const;
    await wallet.charges.dispatch(
      { ...params, authChannel: 'wallet_push' },
      { idempotencyKey: 'dispatch:order_7' },
    );
    const error = await caught(
      server
        .wallet()
        .charges.dispatch({ ...params, authChannel: 'wallet_qr' }, { idempotencyKey: 'dispatch:order_7' }),
    );
    expect(error).toMatchObject({ code: 'replay_mismatch', received: { authChannel: 'wallet_push' } });
    expect(server.dispatches).toBe(1);
  });

  it('after a 502 that may have acted, a mismatched answer keeps the outcome unknown: never "not carried out"', async () => {
    // A gateway's 502 (the service may have refunded), then an answer that is not this request's.
    const gateway = await loopback((_req, res, n) =>
      n === 1
        ? json(res, 502, { status: 'error', message: 'Bad gateway' }, { 'retry-after': '0' })
        : json(res, 200, { status: 'success', data: { ...refunded, amount: 100_000 } }),
    );
    try {
      const params = { reference: 'order_1042', amount: 50_000 };
      const error = await caught(gateway.wallet({ maxRetries: 1 }).refunds.create(params));
      expect(error).toMatchObject({ code: 'replay_mismatch', attempts: 2, outcomeUnknown: true });
      expect(error!.message).toContain('amount: sent 50000, answered 100000');
      expect(error!.message).toContain('The outcome is unknown');
      expect(error!.message).not.toContain('NOT carried out');
    } finally {
      await gateway.close();
    }
  });

  it('the same client refuses the key before sending: idempotency_key_reused, nothing sent', async () => {
    server = await specServer();
    server.paid('order_1042', 500_000);
    const wallet = server.wallet();
    await wallet.refunds.create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'k-1' });
    const sent = server.received.length;
    const error = await caught(
      wallet.refunds.create({ reference: 'order_1042', amount: 50_000 }, { idempotencyKey: 'k-1' }),
    );
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error).toMatchObject({ code: 'idempotency_key_reused', attempts: 0, outcomeUnknown: false });
    expect(error!.message).toContain('Nothing was sent');
    expect(server.received.length).toBe(sent);
    // Across operations too: a dispatch key reused for a refund.
    const other = await caught(wallet.refunds.create({ reference: 'order_1042' }, { idempotencyKey: 'k-1' }));
    expect(other).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('the same key with the same parameters is a legitimate retry: the saved answer, refunded once', async () => {
    server = await specServer();
    server.paid('order_1042', 500_000);
    const wallet = server.wallet();
    const params = { reference: 'order_1042', amount: 100_000, reason: 'Out of stock' };
    const a = await wallet.refunds.create(params, { idempotencyKey: 'k-2' });
    // Built in another order: still the same request.
    const b = await wallet.refunds.create(
      { reason: 'Out of stock', amount: 100_000, reference: 'order_1042' },
      { idempotencyKey: 'k-2' },
    );
    expect(b).toEqual(a);
    expect(server.refunds).toHaveLength(1);
  });

  it('metadata built in another order is the same dispatch; other metadata under the key is refused', async () => {
    server = await specServer();
    const wallet = server.wallet();
    await wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_8' });
    const base = { reference: 'order_8', bankId: 'bnk_01', authChannel: 'wallet_push' } as const;
    const key = { idempotencyKey: 'dispatch-row-8' };
    await wallet.charges.dispatch({ ...base, metadata: { cart: { id: 7, lines: 2 }, shop: 'ikeja' } }, key);
    // The same metadata, its keys in another order at both levels: a retry, answered as saved.
    await wallet.charges.dispatch({ ...base, metadata: { shop: 'ikeja', cart: { lines: 2, id: 7 } } }, key);
    expect(server.dispatches).toBe(1);
    const sent = server.received.length;
    const changed = await caught(
      wallet.charges.dispatch({ ...base, metadata: { shop: 'ikeja', cart: { lines: 3, id: 7 } } }, key),
    );
    expect(changed).toMatchObject({ code: 'idempotency_key_reused', attempts: 0 });
    const dropped = await caught(wallet.charges.dispatch(base, key));
    expect(dropped).toMatchObject({ code: 'idempotency_key_reused' });
    expect(server.received.length).toBe(sent);
  });

  it('forgets the keys used longest ago, so a long-lived client stays bounded', async () => {
    const { KeyMemory } = await import('../../src/core/idempotency.js');
    const memory = new KeyMemory(3);
    const route = '/v1/refunds';
    for (const key of ['a', 'b', 'c', 'd']) expect(memory.claim(key, route, { n: 1 }, '{"n":1}')).toBe(true);
    expect(memory.claim('a', route, { n: 2 }, '{"n":2}')).toBe(true); // forgotten
    expect(memory.claim('d', route, { n: 2 }, '{"n":2}')).toBe(false);
    expect(memory.claim('d', route, { n: 1 }, '{"n":1}')).toBe(true);
    // Claimed again, d is the newest: the next two keys push out c and a, and d stays guarded.
    for (const key of ['e', 'f']) expect(memory.claim(key, route, { n: 1 }, '{"n":1}')).toBe(true);
    expect(memory.claim('d', route, { n: 2 }, '{"n":2}')).toBe(false);
    expect(memory.claim('a', route, { n: 3 }, '{"n":3}')).toBe(true);
  });
});

function table(): RefundTable & { rows: Map<string, RefundRow> } {
  const rows = new Map<string, RefundRow>();
  return {
    rows,
    insert: async (row) => void rows.set(row.id, { ...row }),
    pending: async () => [...rows.values()].filter((r) => r.refundReference === undefined),
    markDone: async (id, refundReference) => void (rows.get(id)!.refundReference = refundReference),
  };
}

describe('the crash-safe pattern of docs/errors.md', () => {
  it('a refund whose answer was lost in a crash is finished by a fresh process with its stored key, once', async () => {
    server = await specServer();
    server.paid('order_1042', 500_000);
    const db = table();
    // Process 1 records the row, sends, and dies before the answer: the service has acted.
    server.loseAnswer(1);
    const crashed = await caught(refund(server.wallet({ maxRetries: 0 }), db, 'order_1042', 50_000));
    expect(crashed).toBeInstanceOf(ConnectionError);
    expect(crashed).toMatchObject({ outcomeUnknown: true });
    expect(server.refunds).toHaveLength(1);
    // Process 2, a fresh client, finishes what is pending with the stored key.
    await finishPendingRefunds(server.wallet(), db);
    expect(server.refunds).toHaveLength(1);
    expect([...db.rows.values()]).toEqual([
      expect.objectContaining({ amount: 50_000, refundReference: 'rfd_1' }),
    ]);
    // A second partial refund is its own row, its own key: carried out, not replayed.
    const second = await refund(server.wallet(), db, 'order_1042', 20_000);
    expect(second).toMatchObject({ amount: 20_000, refundReference: 'rfd_2' });
    expect(server.refunds.map((r) => r.amount)).toEqual([50_000, 20_000]);
  });

  it('without a stored key, the same crash refunds twice (why the pattern exists)', async () => {
    server = await specServer();
    server.paid('order_1042', 500_000);
    server.loseAnswer(1);
    const params = { reference: 'order_1042', amount: 50_000 };
    const crashed = await caught(server.wallet({ maxRetries: 0 }).refunds.create(params));
    expect(isWalletError(crashed) && crashed.outcomeUnknown).toBe(true);
    await server.wallet().refunds.create(params); // a new random key
    expect(server.refunds).toHaveLength(2);
  });
});

describe('the README pattern', () => {
  it('after an unknown outcome, retrying with the same key refunds once', async () => {
    server = await specServer();
    server.paid('order_1042', 500_000);
    server.loseAnswer(1);
    const wallet = server.wallet({ maxRetries: 0 });
    const idempotencyKey = crypto.randomUUID();
    const params = { reference: 'order_1042', amount: 50_000 };
    const error = await caught(wallet.refunds.create(params, { idempotencyKey }));
    expect(isWalletError(error) && error.outcomeUnknown).toBe(true);
    const again = await wallet.refunds.create(params, { idempotencyKey });
    expect(again).toMatchObject({ amount: 50_000, refundReference: 'rfd_1' });
    expect(server.refunds).toHaveLength(1);
  });
});
