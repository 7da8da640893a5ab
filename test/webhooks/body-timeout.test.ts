/**
 * A sender that drips the body a byte at a time cannot hold a webhook route open: both handlers
 * answer 408 within `bodyTimeout`, never call `onEvent`, and let the connection go.
 */
import { connect } from 'node:net';
import type { Server } from 'node:http';

import { afterEach, describe, expect, test } from 'vitest';

import { createNodeWebhookHandler, createWebhookHandler } from '../../src/webhooks.js';
import { BODY, SIGNATURE, close, listen, recording } from './helpers.js';
import { dripRequest, dripStream } from './drip.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

describe('createNodeWebhookHandler under a slow drip', () => {
  test('answers 408 within bodyTimeout over real HTTP, closes the connection, and never runs onEvent', async () => {
    const { handler, events, errors } = recording(createNodeWebhookHandler, { bodyTimeout: 300 });
    const { url, server } = await listen((req, res) => void handler(req, res));
    servers.push(server);
    const result = await dripRequest(url, { intervalMs: 20, declaredLength: 100_000 });
    expect(result.status).toBe(408);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(280);
    expect(result.elapsedMs).toBeLessThan(1_500);
    expect(result.closedByServer).toBe(true);
    expect(events).toEqual([]);
    expect(errors.map(([e, c]) => [(e as { code?: string }).code, c.status])).toEqual([
      ['webhook_body_timeout', 408],
    ]);
  });

  test('a chunked drip (no content-length) gets 408 the same way', async () => {
    const { handler, events } = recording(createNodeWebhookHandler, { bodyTimeout: 200 });
    const { url, server } = await listen((req, res) => void handler(req, res));
    servers.push(server);
    const result = await dripRequest(url, { intervalMs: 20 });
    expect(result.status).toBe(408);
    expect(result.elapsedMs).toBeLessThan(1_500);
    expect(events).toEqual([]);
  });

  test("onEvent's own time is not counted: a slow onEvent after a fast body still gets 200", async () => {
    const { handler } = recording(createNodeWebhookHandler, {
      bodyTimeout: 50,
      onEvent: () => new Promise((r) => setTimeout(r, 200)),
    });
    const { url, server } = await listen((req, res) => void handler(req, res));
    servers.push(server);
    const response = await fetch(url, {
      method: 'POST',
      body: BODY,
      headers: { 'x-wallet-signature': SIGNATURE },
    });
    expect(response.status).toBe(200);
  });

  test('the default deadline is 10 s: a body that has not ended is still waited for before that', async () => {
    const { handler } = recording(createNodeWebhookHandler);
    const { url, server } = await listen((req, res) => void handler(req, res));
    servers.push(server);
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 10\r\n\r\nabc`);
    const early = await new Promise<string>((resolve) => {
      socket.once('data', (d) => resolve(String(d)));
      setTimeout(() => resolve('no answer yet'), 500);
    });
    socket.destroy();
    expect(early).toBe('no answer yet');
  });
});

describe('createWebhookHandler (Fetch) under a slow drip', () => {
  test('answers 408 within bodyTimeout, cancels the body stream, and never runs onEvent', async () => {
    const { handler, events, errors } = recording(createWebhookHandler, { bodyTimeout: 300 });
    const drip = dripStream(20);
    const request = new Request('https://merchant.example/webhooks', {
      method: 'POST',
      headers: { 'x-wallet-signature': SIGNATURE },
      body: drip.stream,
      duplex: 'half',
    });
    const started = performance.now();
    const response = await handler(request);
    const elapsed = performance.now() - started;
    expect(response.status).toBe(408);
    expect(response.headers.get('connection')).toBe('close');
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(1_500);
    await new Promise((r) => setTimeout(r, 50));
    expect(drip.cancelled()).toBe(true);
    expect(drip.sent()).toBeGreaterThan(3);
    expect(events).toEqual([]);
    expect(errors.map(([, c]) => c.status)).toEqual([408]);
  });
});
