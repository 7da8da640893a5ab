/**
 * A sender that drips the body a byte at a time cannot hold a webhook route open: both handlers
 * answer 408 at `bodyTimeout`, never call `onEvent`, and let the connection go. The handlers'
 * deadlines run on the fake clock, so "at 300 ms" is exact; the Node handler's bytes still travel
 * over a real socket.
 */
import type { IncomingMessage, Server } from 'node:http';

import { afterEach, describe, expect, test, vi } from 'vitest';

import { createNodeWebhookHandler, createWebhookHandler } from '../../src/webhooks.js';
import { fakeClock, track } from '../helpers/fake-clock.js';
import { BODY, SIGNATURE, close, recording } from './helpers.js';
import { dripStream, listenForOne, rawPost } from './drip.js';

const servers: Server[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map(close));
});

/** One byte every `stepMs` of the fake clock, each read by the server, for `ms` in all. */
async function drip(post: ReturnType<typeof rawPost>, req: IncomingMessage, ms: number, stepMs = 20) {
  for (let t = 0; t < ms; t += stepMs) {
    await post.byte(req);
    await vi.advanceTimersByTimeAsync(Math.min(stepMs, ms - t));
  }
}

const codes = (errors: [unknown, { status: number }][]) =>
  errors.map(([e, c]) => [(e as { code?: string }).code, c.status]);

describe('createNodeWebhookHandler under a slow drip', () => {
  for (const [framing, declaredLength] of [
    ['content-length', 100_000],
    ['chunked', undefined],
  ] as const) {
    test(`answers 408 at bodyTimeout over real HTTP (${framing}), closes the connection, and never runs onEvent`, async () => {
      fakeClock();
      const { handler, events, errors } = recording(createNodeWebhookHandler, { bodyTimeout: 300 });
      const { url, server, request } = await listenForOne(handler);
      servers.push(server);
      const post = rawPost(url, declaredLength);
      const req = await request;
      await drip(post, req, 299); // 15 bytes, each read well within the deadline
      expect(errors).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(codes(errors)).toEqual([['webhook_body_timeout', 408]]);
      vi.useRealTimers();
      expect(await post.answer).toEqual({ status: 408, connection: 'close', closedByServer: true });
      expect(events).toEqual([]);
    });
  }

  test("onEvent's own time is not counted: a slow onEvent after a fast body still gets 200", async () => {
    fakeClock();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { handler, errors } = recording(createNodeWebhookHandler, {
      bodyTimeout: 50,
      onEvent: () => (started(), new Promise((r) => setTimeout(r, 200))),
    });
    const { url, server } = await listenForOne(handler);
    servers.push(server);
    const response = fetch(url, { method: 'POST', body: BODY, headers: { 'x-wallet-signature': SIGNATURE } });
    await running; // the body is in: from here only onEvent's 200 ms of the fake clock remain
    await vi.advanceTimersByTimeAsync(200);
    vi.useRealTimers();
    expect((await response).status).toBe(200);
    expect(errors).toEqual([]);
  });

  test('the default deadline is 10 s: an unfinished body is waited for until then, and no longer', async () => {
    fakeClock();
    const { handler, errors } = recording(createNodeWebhookHandler);
    const { url, server, request } = await listenForOne(handler);
    servers.push(server);
    const post = rawPost(url, 10);
    await post.byte(await request);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(codes(errors)).toEqual([['webhook_body_timeout', 408]]);
    vi.useRealTimers();
    expect((await post.answer).status).toBe(408);
  });
});

describe('createWebhookHandler (Fetch) under a slow drip', () => {
  test('answers 408 at bodyTimeout, cancels the body stream, and never runs onEvent', async () => {
    fakeClock();
    const { handler, events, errors } = recording(createWebhookHandler, { bodyTimeout: 300 });
    const drip = dripStream(20); // one byte every 20 ms of the fake clock
    const request = new Request('https://merchant.example/webhooks', {
      method: 'POST',
      headers: { 'x-wallet-signature': SIGNATURE },
      body: drip.stream,
      duplex: 'half',
    });
    const after = track(handler(request));
    expect((await after(299)).settled).toBe(false);
    const { value: response } = await after(1);
    expect(response?.status).toBe(408);
    expect(response?.headers.get('connection')).toBe('close');
    expect(drip.cancelled()).toBe(true);
    expect(drip.sent()).toBeGreaterThanOrEqual(14);
    expect(events).toEqual([]);
    expect(errors.map(([, c]) => c.status)).toEqual([408]);
  });

  test('the default deadline is 10 s here too', async () => {
    fakeClock();
    const { handler } = recording(createWebhookHandler);
    const drip = dripStream(1_000);
    const request = new Request('https://merchant.example/webhooks', {
      method: 'POST',
      body: drip.stream,
      duplex: 'half',
    });
    const after = track(handler(request));
    expect((await after(9_999)).settled).toBe(false);
    expect((await after(1)).value?.status).toBe(408);
  });
});
