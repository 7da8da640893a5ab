/**
 * A delivery whose signature matches but whose payload breaks the documented shape is genuine: it
 * is never answered like a forgery (400, which a sender may take as final). It goes to
 * `onInvalidEvent` (200 once that succeeds), else it is answered 500 and reported as an error
 * naming what did not fit, so the service delivers it again. Both handlers.
 */
import { request as httpRequest } from 'node:http';
import type { Server } from 'node:http';

import { afterEach, describe, expect, test, vi } from 'vitest';

import {
  createNodeWebhookHandler,
  createWebhookHandler,
  WebhookVerificationError,
} from '../../src/webhooks.js';
import type { WebhookHandlerOptions } from '../../src/webhooks.js';
import { OTHER_SECRET, SECRET, close, hmacHex, listen, recording } from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

type Send = (body: string, signature: string) => Promise<number>;
type Rig = Omit<ReturnType<typeof recording>, 'handler'> & { send: Send };

/** Each handler, built with `options`, and how to deliver to it. */
const kinds: [string, (options: Partial<WebhookHandlerOptions>) => Promise<Rig>][] = [
  [
    'createWebhookHandler',
    async (options) => {
      const rec = recording(createWebhookHandler, options);
      const send: Send = async (body, signature) =>
        (
          await rec.handler(
            new Request('https://m.example/hooks', {
              method: 'POST',
              body,
              headers: { 'x-wallet-signature': signature },
            }),
          )
        ).status;
      return rig(rec, send);
    },
  ],
  [
    'createNodeWebhookHandler',
    async (options) => {
      const rec = recording(createNodeWebhookHandler, options);
      const { url, server } = await listen((req, res) => void rec.handler(req, res));
      servers.push(server);
      const send: Send = async (body, signature) =>
        (await fetch(url, { method: 'POST', body, headers: { 'x-wallet-signature': signature } })).status;
      return rig(rec, send);
    },
  ],
];

function rig(rec: Omit<Rig, 'send'>, send: Send): Rig {
  return { events: rec.events, errors: rec.errors, send };
}

const charge = (data: Record<string, unknown>) =>
  JSON.stringify({ event: 'charge.success', data: { reference: 'order_pii_77', ...data } });
const GOOD = { amount: 500_000, customer: { handle: '@ada' } };

/** Genuine bodies that do not fit, and the words the error must name. */
const UNEXPECTED: [string, string, string][] = [
  ['an amount as a string', charge({ ...GOOD, amount: '500000' }), 'data.amount is a string'],
  ['a missing customer.handle', charge({ ...GOOD, customer: {} }), 'data.customer.handle is missing'],
  ['a negative amount', charge({ ...GOOD, amount: -500_000 }), 'data.amount is negative'],
  ['a byte order mark', `\ufeff${charge(GOOD)}`, 'byte order mark'],
  ['a body that is not JSON', '{"event":', 'not JSON'],
  ['null', 'null', 'null, not a JSON object'],
];

describe.each(kinds)('%s with a signed payload that breaks the documented shape', (_, make) => {
  test.each(UNEXPECTED)(
    'without onInvalidEvent, %s is answered 500 (delivered again) and reported naming what did not fit',
    async (__, body, words) => {
      const { send, events, errors } = await make({});
      expect(await send(body, hmacHex(body, SECRET))).toBe(500);
      expect(events).toEqual([]);
      expect(errors).toHaveLength(1);
      const [error, context] = errors[0]!;
      expect(context).toEqual({ status: 500 });
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({ reason: 'invalid_payload' });
      expect((error as Error).message).toContain(words);
      // What did not fit is named by field and type; the payload's values stay out of the log.
      expect((error as Error).message).not.toContain('order_pii_77');
    },
  );

  test.each(UNEXPECTED)('with onInvalidEvent, %s reaches it and is answered 200', async (__, body, words) => {
    const seen: [unknown, WebhookVerificationError][] = [];
    const { send, events, errors } = await make({ onInvalidEvent: (p, e) => void seen.push([p, e]) });
    expect(await send(body, hmacHex(body, SECRET))).toBe(200);
    expect(events).toEqual([]);
    expect(errors).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]![1].message).toContain(words);
    const payload = seen[0]![0];
    if (body.startsWith('{"event":"charge')) expect(payload).toEqual(JSON.parse(body));
    else if (body !== 'null') expect(payload).toBe(body); // the text, when it is not JSON
  });

  test('an onInvalidEvent that throws gets 500, so the delivery comes again', async () => {
    const failure = new Error('queue down');
    const { send, errors } = await make({
      onInvalidEvent: () => Promise.reject(failure),
    });
    const body = charge({ ...GOOD, amount: '1' });
    expect(await send(body, hmacHex(body, SECRET))).toBe(500);
    expect(errors).toEqual([[failure, { status: 500 }]]);
  });

  test('a forged delivery of such a payload still gets 400 without details, and never reaches onInvalidEvent', async () => {
    const onInvalidEvent = vi.fn();
    const { send, errors } = await make({ onInvalidEvent });
    const body = charge({ ...GOOD, amount: '1' });
    expect(await send(body, hmacHex(body, OTHER_SECRET))).toBe(400);
    expect(onInvalidEvent).not.toHaveBeenCalled();
    expect(errors[0]?.[0]).toMatchObject({ reason: 'signature_mismatch' });
  });

  test('the default onError logs it as an error that names the field, not as a warning', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { send } = await make({ onError: undefined as never });
      const body = charge({ amount: 500_000 });
      expect(await send(body, hmacHex(body, SECRET))).toBe(500);
      expect(warn).not.toHaveBeenCalled();
      expect(error).toHaveBeenCalledTimes(1);
      const line = error.mock.calls[0]!.map(String).join(' ');
      expect(line).toContain('500');
      expect(line).toContain('data.customer is missing');
      expect(line).not.toContain('order_pii_77');
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });
});

describe('createNodeWebhookHandler and a signature header sent twice', () => {
  async function send(values: string[]): Promise<number> {
    const rec = recording(createNodeWebhookHandler);
    const { url, server } = await listen((req, res) => void rec.handler(req, res));
    servers.push(server);
    const body = charge(GOOD);
    return new Promise<number>((resolve, reject) => {
      // Two header lines, as a proxy that repeats a header sends them; Node joins them as "sig, sig".
      // Raw header lists get no Host from node:http; without one the server itself answers 400.
      const headers = ['host', new URL(url).host, 'content-type', 'application/json'];
      for (const value of values)
        headers.push('x-wallet-signature', value.replaceAll('BODY', hmacHex(body, SECRET)));
      const req = httpRequest(url, { method: 'POST', headers });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  test('the same signature twice is read as the array it is, and accepted (as verifyWebhook accepts [sig, sig])', async () => {
    expect(await send(['BODY', 'BODY'])).toBe(200);
    expect(await send(['BODY', ' BODY '])).toBe(200);
  });

  test('the same signature on two lines, one of them holding it twice (a proxy folded a repeat), is accepted', async () => {
    expect(await send(['BODY, BODY', 'BODY'])).toBe(200);
  });

  test('two different values are still refused with 400', async () => {
    expect(await send(['BODY', hmacHex('other', SECRET)])).toBe(400);
    expect(await send([`BODY, ${hmacHex('other', SECRET)}`, 'BODY'])).toBe(400);
  });

  test('a request object without headersDistinct (a stand-in request) splits the joined value', async () => {
    const rec = recording(createNodeWebhookHandler, {});
    const body = charge(GOOD);
    const sig = hmacHex(body, SECRET);
    const { Readable } = await import('node:stream');
    const req = Object.assign(Readable.from([Buffer.from(body)]), {
      method: 'POST',
      headers: { 'x-wallet-signature': `${sig}, ${sig}` },
    });
    let status = 0;
    const res = {
      headersSent: false,
      statusCode: 0,
      setHeader: () => undefined,
      end: () => {
        status = res.statusCode;
      },
    };
    await rec.handler(req as never, res as never);
    expect(status).toBe(200);
  });
});
