import { request as httpRequest } from 'node:http';
import type { Server } from 'node:http';

import express from 'express';
import { afterEach, describe, expect, test } from 'vitest';

import { createNodeWebhookHandler, verifyWebhook, WebhookVerificationError } from '../../src/webhooks.js';
import type { WebhookHandlerOptions } from '../../src/webhooks.js';
import {
  BODY,
  CHARGE_SUCCESS,
  OTHER_SECRET,
  SECRET,
  SIGNATURE,
  close,
  deliver,
  hmacHex,
  listen,
  recording,
} from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

const recorder = (options: Partial<WebhookHandlerOptions> = {}) =>
  recording(createNodeWebhookHandler, options);

async function serve(app: express.Express): Promise<string> {
  const { url, server } = await listen(app);
  servers.push(server);
  return url;
}

describe('Express 5 with express.raw() on the webhook route', () => {
  async function start(options: Partial<WebhookHandlerOptions> = {}) {
    const rec = recorder(options);
    const app = express();
    app.post('/webhooks/wallet', express.raw({ type: 'application/json' }), rec.handler);
    app.use(express.json()); // after the webhook route: other routes still get parsed JSON
    const url = `${await serve(app)}/webhooks/wallet`;
    return { ...rec, url };
  }

  test('a signed delivery over HTTP gets 200 {"received":true} and reaches onEvent', async () => {
    const { url, events, errors } = await start();
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(events).toEqual([CHARGE_SUCCESS]);
    expect(errors).toEqual([]);
  });

  test.each([
    ['a tampered body', BODY.replace('order_1042', 'order_9999'), SIGNATURE],
    ['a re-serialized body', JSON.stringify(CHARGE_SUCCESS, null, 2), SIGNATURE],
    ['a wrong secret', BODY, hmacHex(BODY, OTHER_SECRET)],
    ['a truncated signature', BODY, SIGNATURE.slice(0, 100)],
    ['no signature', BODY, undefined],
  ])('%s gets 400 with no detail, and onEvent is not called', async (_, body, signature) => {
    const { url, events, errors } = await start();
    expect(await deliver(url, body, signature)).toEqual({ status: 400, json: { received: false } });
    expect(events).toEqual([]);
    expect(errors[0]?.[0]).toBeInstanceOf(WebhookVerificationError);
  });

  test('two different signature headers are refused', async () => {
    const { url, events, errors } = await start();
    const status = await new Promise<number>((resolve, reject) => {
      // fetch folds repeated headers itself; node:http sends them as two lines, as a proxy might.
      const req = httpRequest(url, {
        method: 'POST',
        // Raw header lists get no Host from node:http; without one the server itself answers 400.
        headers: [
          'host',
          new URL(url).host,
          'content-type',
          'application/json',
          'x-wallet-signature',
          SIGNATURE,
          'x-wallet-signature',
          hmacHex(BODY, OTHER_SECRET),
        ],
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(BODY);
    });
    expect(status).toBe(400);
    expect(events).toEqual([]);
    expect(errors[0]?.[0]).toMatchObject({ reason: 'malformed_signature' });
  });

  test('onEvent throwing gets 500, and the same delivery succeeds once it stops throwing', async () => {
    let attempts = 0;
    const { url, errors } = await start({
      onEvent: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('database down');
      },
    });
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 500, json: { received: false } });
    expect(errors[0]?.[1]).toEqual({ status: 500 });
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(attempts).toBe(2);
  });
});

describe('Express 5 with express.json() mounted first (the common mistake)', () => {
  test('fails with the message that says how to fix it, not a generic mismatch', async () => {
    const { handler, events, errors } = recorder();
    const app = express();
    app.use(express.json());
    app.post('/webhooks/wallet', handler);
    const url = `${await serve(app)}/webhooks/wallet`;

    const { status, json } = await deliver(url, BODY, SIGNATURE);
    expect(status).toBe(500);
    expect(json).toMatchObject({ received: false, error: 'raw_body_required' });
    expect((json as { message: string }).message).toContain("express.raw({ type: 'application/json' })");
    expect(events).toEqual([]);
    const [error, context] = errors[0] ?? [];
    expect(context).toEqual({ status: 500 });
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('raw_body_required');
    expect((error as Error).message).toMatch(/before express\.json\(\)/);
  });

  test('verifyWebhook given the parsed req.body says the same', async () => {
    let reason: unknown;
    const app = express();
    app.use(express.json());
    app.post('/webhooks/wallet', (req, res) => {
      try {
        verifyWebhook(req.body, req.headers['x-wallet-signature'], SECRET);
      } catch (error) {
        reason = (error as WebhookVerificationError).reason;
      }
      res.status(500).end();
    });
    const url = `${await serve(app)}/webhooks/wallet`;
    await deliver(url, BODY, SIGNATURE);
    expect(reason).toBe('raw_body_required');
  });
});

describe('reading the body itself', () => {
  test('Express with no body parser: the handler reads the stream', async () => {
    const { handler, events } = recorder();
    const app = express();
    app.post('/webhooks/wallet', handler);
    const url = `${await serve(app)}/webhooks/wallet`;
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(events).toEqual([CHARGE_SUCCESS]);
  });

  test('express.text() leaves a string, which is the raw body too', async () => {
    const { handler, events } = recorder();
    const app = express();
    app.post('/webhooks/wallet', express.text({ type: 'application/json' }), handler);
    const url = `${await serve(app)}/webhooks/wallet`;
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(events).toEqual([CHARGE_SUCCESS]);
  });

  test("an empty req.body over an unread stream (Express 4's express.urlencoded() on a JSON request) is not a parsed body: the handler reads the stream", async () => {
    const { handler, events } = recorder();
    const app = express();
    // What body-parser 1.x (Express 4) does for a type it does not parse, and many auth middlewares
    // do: `req.body = req.body || {}`, leaving the stream unread.
    app.use((req, _res, next) => {
      req.body = req.body || {};
      next();
    });
    app.post('/webhooks/wallet', handler);
    const url = `${await serve(app)}/webhooks/wallet`;
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(events).toEqual([CHARGE_SUCCESS]);
  });

  test('express.json() before the handler, on a body that is {}, is still the parsed-body mistake', async () => {
    const { handler, events } = recorder();
    const app = express();
    app.use(express.json());
    app.post('/webhooks/wallet', handler);
    const url = `${await serve(app)}/webhooks/wallet`;
    const { status, json } = await deliver(url, '{}', hmacHex('{}', SECRET));
    expect([status, json]).toMatchObject([500, { error: 'raw_body_required' }]);
    expect(events).toEqual([]);
  });

  test('a middleware that consumed the stream without leaving a body gets the fix, not a hang', async () => {
    const { handler, events, errors } = recorder();
    const app = express();
    app.use((req, _res, next) => {
      req.on('end', () => next());
      req.resume();
    });
    app.post('/webhooks/wallet', handler);
    const url = `${await serve(app)}/webhooks/wallet`;
    const { status, json } = await deliver(url, BODY, SIGNATURE);
    expect([status, json]).toMatchObject([500, { error: 'raw_body_required' }]);
    expect(events).toEqual([]);
    expect((errors[0]?.[0] as WebhookVerificationError).reason).toBe('raw_body_required');
  });

  // As createWebhookHandler answers a body another reader holds (f0d93a4): the chunks it took are gone.
  test("a middleware still reading the stream (it took the first chunk) gets the fix, not the forgery's 400", async () => {
    const { handler, events, errors } = recorder();
    const app = express();
    app.use((req, _res, next) => void req.once('data', () => next()));
    app.post('/webhooks/wallet', handler);
    const url = `${await serve(app)}/webhooks/wallet`;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'x-wallet-signature': SIGNATURE } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write(BODY.slice(0, 20));
      setTimeout(() => req.end(BODY.slice(20)), 50);
    });
    expect(status).toBe(500);
    expect(events).toEqual([]);
    expect((errors[0]?.[0] as WebhookVerificationError).reason).toBe('raw_body_required');
  });

  test('a chunked body over maxBodyBytes gets 413 without being buffered', async () => {
    const { handler, events, errors } = recorder({ maxBodyBytes: 1024 });
    const { url, server } = await listen((req, res) => void handler(req, res));
    servers.push(server);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'x-wallet-signature': SIGNATURE } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // No content-length: the limit must be enforced while reading.
      for (let i = 0; i < 8; i++) req.write('x'.repeat(512));
      req.end();
    });
    expect(status).toBe(413);
    expect(events).toEqual([]);
    expect(errors.map(([, c]) => c.status)).toEqual([413]);
  });

  test('node:http: 200 for a signed delivery, 405 for GET, 413 over maxBodyBytes', async () => {
    const { handler, events, errors } = recorder({ maxBodyBytes: 1024 });
    const { url, server } = await listen((req, res) => void handler(req, res));
    servers.push(server);
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });

    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');

    const big = JSON.stringify({ event: 'charge.success', data: { pad: 'x'.repeat(4096) } });
    expect((await deliver(url, big, hmacHex(big, SECRET))).status).toBe(413);
    expect(events).toEqual([CHARGE_SUCCESS]);
    expect(errors.map(([, c]) => c.status)).toEqual([405, 413]);
  });
});
