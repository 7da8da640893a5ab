/**
 * The Hono-on-Node and Fastify examples work as written: built in process, and run as a merchant
 * runs them (tsx, the secret from WALLET_WEBHOOK_SECRET), a signed delivery gets 200 and reaches
 * the app, a forged one 400.
 */

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import { createApp as createFastifyApp } from '../../examples/fastify-webhook.js';
import { createApp as createHonoApp } from '../../examples/hono-node-webhook.js';
import type { ChargeSuccessData } from '../../src/webhooks.js';
import {
  BODY,
  CHARGE_SUCCESS,
  OTHER_SECRET,
  SECRET,
  SIGNATURE,
  deliver,
  hmacHex,
  runExample,
} from './helpers.js';

const stops: (() => Promise<unknown>)[] = [];
beforeEach(() => {
  for (const level of ['log', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const FORGED = hmacHex(BODY, OTHER_SECRET);

/** Runs an example as written and resolves with its webhook URL once it listens. */
async function runAsWritten(file: string): Promise<{ url: string; output: () => string }> {
  const { url, output, stop } = await runExample(file, SECRET);
  stops.push(async () => stop());
  return { url, output };
}

describe.each([['examples/hono-node-webhook.ts'], ['examples/fastify-webhook.ts']])('%s', (file) => {
  test('runs as written: a signed delivery 200 (and fulfilled), a forged one 400', async () => {
    const { url, output } = await runAsWritten(file);
    expect(await deliver(url, BODY, FORGED)).toEqual({ status: 400, json: { received: false } });
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    await expect.poll(output).toContain('paid: order_1042, 500000 Kobo, @ada');
  });
});

describe('the example apps in process', () => {
  test('Hono on Node: signed 200 with the typed event, forged 400, and a missing secret 500 (not a crash)', async () => {
    const paid: ChargeSuccessData[] = [];
    const app = createHonoApp(SECRET, { fulfil: (data) => void paid.push(data) });
    const post = (signature: string) =>
      app.fetch(
        new Request('http://shop.example/webhooks/wallet', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-wallet-signature': signature },
          body: BODY,
        }),
      );
    expect((await post(SIGNATURE)).status).toBe(200);
    expect((await post(FORGED)).status).toBe(400);
    expect(paid).toEqual([CHARGE_SUCCESS.data]);
    const unset = createHonoApp(undefined);
    const answer = await unset.fetch(
      new Request('http://shop.example/webhooks/wallet', { method: 'POST', body: BODY }),
    );
    expect(answer.status).toBe(500);
  });

  test('Fastify: signed 200, forged 400, and the rest of the app keeps its JSON parsing', async () => {
    const paid: ChargeSuccessData[] = [];
    const app = createFastifyApp(SECRET, { fulfil: (data) => void paid.push(data) });
    app.post('/echo', async (request) => request.body);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => app.close());
    const url = `${address}/webhooks/wallet`;
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(await deliver(url, BODY, FORGED)).toEqual({ status: 400, json: { received: false } });
    expect(paid).toEqual([CHARGE_SUCCESS.data]);
    const echoed = await fetch(`${address}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echoed.json()).toEqual({ a: 1 });
  });
});
