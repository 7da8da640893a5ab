import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError } from '@wallet/node';
import { caught } from './helpers/caught.js';
import { paid, refunded } from './helpers/mock-service.js';
import { jsonAnswer, rawServer, type RawScript } from './helpers/raw-server.js';

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

describe('an unsolicited 100 Continue on the default transport (undici fails the connection on it)', () => {
  it('ends a refund as a ConnectionError that names the 100, says the outcome is unknown and what to do', async () => {
    const s = await serve(() => [CONTINUE, ok(refunded)]);
    const error = await caught(s.wallet({ maxRetries: 0 }).refunds.create(refund));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: true, attempts: 1 });
    expect(error!.message).toContain('100 Continue');
    expect(error!.message).toContain('have the server or proxy stop sending it');
    expect(error!.message).toContain(`idempotencyKey '${error!.idempotencyKey}'`);
    expect(s.requests).toHaveLength(1);
  });

  it('ends a verify the same way, with the advice to verify again', async () => {
    const s = await serve(() => [CONTINUE, ok(paid)]);
    const error = await caught(s.wallet({ maxRetries: 0 }).charges.verify('order_1042'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error!.message).toContain('100 Continue');
  });

  it('leaves a whole 100 head inside a body alone (a chunked 404 whose chunk is one)', async () => {
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const s = await serve(() => [
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
    expect(error!.message).toContain('have the server or proxy stop sending it');
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
