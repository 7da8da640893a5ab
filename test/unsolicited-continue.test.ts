import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError } from '@wallet/node';
import { caught } from './helpers/caught.js';
import { paid, refunded } from './helpers/mock-service.js';
import { bytes, jsonAnswer, rawServer, type RawScript } from './helpers/raw-server.js';

// RFC 9110 §15.2: a client must parse, and may ignore, a 1xx it did not ask for. The SDK never
// sends `Expect: 100-continue`, so every 100 it meets is unsolicited.

let server: Awaited<ReturnType<typeof rawServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: RawScript) {
  server = await rawServer(script);
  return server;
}

const refund = { reference: 'order_1042', amount: 100_000 } as const;
const ok = (data: unknown) => jsonAnswer(200, { status: 'success', data });
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

describe('an unsolicited 100 Continue on the default transport', () => {
  it('is skipped: a refund answered after one succeeds, sent once', async () => {
    const s = await serve(() => [CONTINUE, ok(refunded)]);
    await expect(s.wallet().refunds.create(refund)).resolves.toMatchObject({
      refundReference: 'rf_001',
      amount: 100_000,
    });
    expect(s.requests).toHaveLength(1);
  });

  it('is skipped when it carries headers, comes byte by byte, and comes three times', async () => {
    const hundred = 'HTTP/1.1 100 Continue\r\nx-trace: 7f3a\r\nserver: edge\r\n\r\n';
    const s = await serve(() => [...bytes(hundred), CONTINUE, hundred, ...bytes(ok(refunded))]);
    await expect(s.wallet().refunds.create(refund)).resolves.toMatchObject({ amount: 100_000 });
    expect(s.requests).toHaveLength(1);
  });

  it('is skipped with the answer in the same TCP write', async () => {
    const s = await serve(() => [CONTINUE + CONTINUE + ok(paid)]);
    await expect(s.wallet().charges.verify('order_1042')).resolves.toMatchObject({ amount: 500_000 });
  });

  it('is skipped before each answer on a reused keep-alive connection', async () => {
    const s = await serve((r) => [CONTINUE, r.method === 'POST' ? ok(refunded) : ok(paid)]);
    const wallet = s.wallet({ maxConnections: 1 });
    await expect(wallet.refunds.create(refund)).resolves.toMatchObject({ amount: 100_000 });
    await expect(wallet.charges.verify('order_1042')).resolves.toMatchObject({ amount: 500_000 });
    await expect(wallet.refunds.create({ ...refund, amount: 100_000 })).resolves.toBeDefined();
    expect(s.requests.map((r) => r.connection)).toEqual([1, 1, 1]);
  });

  it('leaves body bytes that look like a 100 alone, even where a TCP read starts with them', async () => {
    const data = { ...paid, customer: { ...paid.customer, name: 'HTTP/1.1 100 Continue' } };
    const answer = ok(data);
    const at = answer.indexOf('HTTP/1.1 100 Continue');
    const s = await serve(() => [CONTINUE, answer.slice(0, at), answer.slice(at)]);
    await expect(s.wallet().charges.verify('order_1042')).resolves.toMatchObject({
      customer: { name: 'HTTP/1.1 100 Continue' },
    });
  });

  it('leaves a whole 100 head inside a body alone (a chunked 404 whose chunk is one)', async () => {
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const s = await serve(() => [
      CONTINUE,
      'HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n',
      chunk('no such charge; upstream said: '),
      chunk(CONTINUE),
      chunk('(end)'),
      '0\r\n\r\n',
    ]);
    const error = await caught(s.wallet().charges.verify('order_9'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error!.message).toContain('upstream said');
    expect(error!.message).toContain('100 Continue');
    expect(error!.message).toContain('(end)');
  });
});

describe('an unsolicited 100 Continue through a fetch function (Node fetch: its parser fails on it)', () => {
  const viaFetch = { fetch: (input: string, init: RequestInit) => fetch(input, init), maxRetries: 0 };

  it('ends a refund as a ConnectionError that names the 100, says the outcome is unknown and what to do', async () => {
    const s = await serve(() => [CONTINUE, ok(refunded)]);
    const error = await caught(s.wallet(viaFetch).refunds.create(refund));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: true, attempts: 1 });
    expect(error!.message).toContain('100 Continue');
    expect(error!.message).toContain('leave out a fetch or dispatcher option');
    expect(error!.message).toContain(`idempotencyKey '${error!.idempotencyKey}'`);
  });

  it("through a merchant's own undici dispatcher: the same truthful ConnectionError", async () => {
    const s = await serve(() => [CONTINUE, ok(paid)]);
    const dispatcher = new Agent();
    const error = await caught(s.wallet({ dispatcher, maxRetries: 0 }).charges.verify('order_1042'));
    await dispatcher.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error!.message).toContain('100 Continue');
  });
});
