import { describe, expect, test, vi } from 'vitest';

import { ValidationError } from '../../src/errors/base.js';
import { createWebhookHandler, WebhookVerificationError } from '../../src/webhooks.js';
import type { WebhookHandlerOptions } from '../../src/webhooks.js';
import { BODY, CHARGE_SUCCESS, OTHER_SECRET, SECRET, SIGNATURE, hmacHex, recording } from './helpers.js';

const URL = 'https://merchant.example/api/webhooks/wallet';

const setup = (options: Partial<WebhookHandlerOptions> = {}) => recording(createWebhookHandler, options);

function post(body: string | ReadableStream<Uint8Array>, signature?: string): Request {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (signature !== undefined) headers.set('x-wallet-signature', signature);
  // duplex 'half' is what a streamed request body needs.
  return new Request(URL, { method: 'POST', headers, body, duplex: 'half' });
}

async function answer(response: Response): Promise<[number, unknown]> {
  expect(response.headers.get('content-type')).toBe('application/json');
  return [response.status, await response.json()];
}

describe('createWebhookHandler (Fetch)', () => {
  test('answers 200 {"received":true} after onEvent resolved, with the typed event', async () => {
    let resolved = false;
    const { handler, events } = setup({
      onEvent: async (event) => {
        await new Promise((r) => setTimeout(r, 20));
        events.push(event);
        resolved = true;
      },
    });
    expect(await answer(await handler(post(BODY, SIGNATURE)))).toEqual([200, { received: true }]);
    expect(resolved).toBe(true);
    expect(events).toEqual([CHARGE_SUCCESS]);
  });

  test('reads a streamed body, and accepts an uppercase signature and a rotated secret', async () => {
    const { handler, events } = setup({ secret: [OTHER_SECRET, SECRET] });
    const bytes = new TextEncoder().encode(BODY);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const request = post(stream, SIGNATURE.toUpperCase());
    expect(await answer(await handler(request))).toEqual([200, { received: true }]);
    expect(events).toEqual([CHARGE_SUCCESS]);
  });

  test.each([
    ['a tampered body', BODY.replace('500000', '900000'), SIGNATURE],
    ['a re-serialized body', JSON.stringify(CHARGE_SUCCESS, null, 1), SIGNATURE],
    ['a wrong secret', BODY, hmacHex(BODY, OTHER_SECRET)],
    ['a malformed signature', BODY, `${SIGNATURE}00`],
    ['no signature', BODY, undefined],
  ])('answers 400 with no detail to %s, and never calls onEvent', async (_, body, signature) => {
    const { handler, events, errors } = setup();
    expect(await answer(await handler(post(body, signature)))).toEqual([400, { received: false }]);
    expect(events).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toBeInstanceOf(WebhookVerificationError);
    expect(errors[0]?.[1]).toEqual({ status: 400 });
  });

  test('answers 500 when onEvent throws, so the delivery comes again, and 200 when it succeeds later', async () => {
    let fail = true;
    const failure = new Error('database down');
    const { handler, errors } = setup({
      onEvent: () => {
        if (fail) throw failure;
      },
    });
    expect(await answer(await handler(post(BODY, SIGNATURE)))).toEqual([500, { received: false }]);
    expect(errors).toEqual([[failure, { status: 500 }]]);
    fail = false;
    expect(await answer(await handler(post(BODY, SIGNATURE)))).toEqual([200, { received: true }]);
  });

  test('answers 500 with the fix when something already read the body', async () => {
    const { handler, events, errors } = setup();
    const request = post(BODY, SIGNATURE);
    await request.text();
    const [status, body] = await answer(await handler(request));
    expect(status).toBe(500);
    expect(body).toMatchObject({ received: false, error: 'raw_body_required' });
    expect((body as { message: string }).message).toContain('await request.text()');
    expect(events).toEqual([]);
    expect((errors[0]?.[0] as WebhookVerificationError).reason).toBe('raw_body_required');
  });

  test("answers 500 with the fix, not the forgery's 400, when another reader holds the body (a tee, a pipe)", async () => {
    const { handler, events, errors } = setup();
    const request = post(BODY, SIGNATURE);
    request.body!.tee(); // a logging middleware's copies: the body is locked, not yet read
    expect(request.bodyUsed).toBe(false);
    const [status, body] = await answer(await handler(request));
    expect(status).toBe(500);
    expect(body).toMatchObject({ received: false, error: 'raw_body_required' });
    expect(events).toEqual([]);
    expect((errors[0]?.[0] as WebhookVerificationError).reason).toBe('raw_body_required');
  });

  test('answers 405 to a method other than POST', async () => {
    const { handler, events } = setup();
    const response = await handler(new Request(URL, { method: 'GET' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(events).toEqual([]);
  });

  test('answers 413 over maxBodyBytes, declared or streamed, without calling onEvent', async () => {
    const { handler, events, errors } = setup({ maxBodyBytes: 64 });
    expect((await handler(post(BODY, SIGNATURE))).status).toBe(413);
    const big = new TextEncoder().encode(BODY);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(big); // endless: the handler must stop reading on its own
      },
    });
    const streamed = post(stream, SIGNATURE);
    expect((await handler(streamed)).status).toBe(413);
    expect(events).toEqual([]);
    expect(errors.map(([, c]) => c.status)).toEqual([413, 413]);
  });

  test('the default onError logs: a warning for 4xx, an error for 5xx', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const handler = createWebhookHandler({
        secret: SECRET,
        onEvent: () => {
          throw new Error('boom');
        },
      });
      await handler(post(BODY, undefined));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain('400');
      await handler(post(BODY, SIGNATURE));
      expect(error).toHaveBeenCalledTimes(1);
      expect(error.mock.calls[0]?.[1]).toEqual(new Error('boom'));
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  test('an onError that throws does not break the answer', async () => {
    const { handler } = setup({
      onError: () => {
        throw new Error('logger down');
      },
    });
    expect((await handler(post(BODY, undefined))).status).toBe(400);
  });

  test('an async onError that rejects (its log service down) leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.prependListener('unhandledRejection', onUnhandled);
    try {
      // Typed void, as a log service client's method returning a promise is accepted.
      const onError = (() => Promise.reject(new Error('log service unavailable'))) as () => void;
      const { handler } = setup({ onError });
      expect((await handler(post(BODY, undefined))).status).toBe(400);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('a signature header sent twice (Headers joins it as "sig, sig") is read as the list it is, as the Node handler reads it', async () => {
    const send = async (values: string[]): Promise<number> => {
      const headers = new Headers({ 'content-type': 'application/json' });
      for (const value of values) headers.append('x-wallet-signature', value);
      return (await setup().handler(new Request(URL, { method: 'POST', headers, body: BODY }))).status;
    };
    // A proxy that repeats the header must not turn a genuine delivery into a forgery's 400.
    expect(await send([SIGNATURE, SIGNATURE])).toBe(200);
    expect(await send([SIGNATURE, hmacHex(BODY, OTHER_SECRET)])).toBe(400);
    expect(await send([SIGNATURE, ''])).toBe(400);
  });

  test('refuses a malformed secret at creation, not per delivery', () => {
    expect(() => createWebhookHandler({ secret: [SECRET, ''], onEvent: () => undefined })).toThrow(
      expect.objectContaining({ reason: 'missing_secret' }),
    );
    expect(() => createWebhookHandler({ secret: [], onEvent: () => undefined })).toThrow(
      WebhookVerificationError,
    );
    expect(() => createWebhookHandler({ secret: SECRET, onEvent: () => undefined, maxBodyBytes: 0 })).toThrow(
      ValidationError,
    );
  });
});
