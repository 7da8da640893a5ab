import { rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Express } from 'express';

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import { createApp } from '../../examples/express-webhook.js';
import type { ChargeSuccessData } from '../../src/webhooks.js';
import { extractExamples } from '../docs/extract-examples.js';
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
  runExample,
} from './helpers.js';

const servers: Server[] = [];
beforeEach(() => {
  // The examples log what a merchant would see; keep the test output readable.
  for (const level of ['log', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map(close));
});

describe('examples/express-webhook.ts', () => {
  async function start(fulfil: (data: ChargeSuccessData) => void | Promise<void>) {
    const { url, server } = await listen(createApp([OTHER_SECRET, SECRET], { fulfil }));
    servers.push(server);
    return { url: `${url}/webhooks/wallet`, base: url };
  }

  test('fulfils a signed charge.success once, even when delivered twice', async () => {
    const paid: ChargeSuccessData[] = [];
    const { url } = await start((data) => {
      paid.push(data);
    });
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(paid).toEqual([CHARGE_SUCCESS.data]);
  });

  test('fulfils once when a copy arrives while the first is still fulfilling (a redelivery after a timeout)', async () => {
    const paid: string[] = [];
    let release = (): void => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const { url } = await start(async (data) => {
      paid.push(data.reference);
      // The first is a warehouse call slower than the sender's timeout: it delivers again meanwhile.
      if (paid.length === 1) await slow;
    });
    const first = deliver(url, BODY, SIGNATURE);
    await expect.poll(() => paid.length).toBe(1);
    const copy = await deliver(url, BODY, SIGNATURE);
    release();
    expect(await first).toEqual({ status: 200, json: { received: true } });
    expect(paid).toEqual(['order_1042']); // shipped once
    // Nor is the copy acknowledged while the first may still fail: it comes again, and finds it done.
    expect(copy.status).toBe(503);
    expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
    expect(paid).toEqual(['order_1042']);
  });

  test('refuses a forged delivery, acknowledges an unknown kind, and retries a failed fulfilment', async () => {
    const paid: string[] = [];
    let failNext = true;
    const { url, base } = await start((data) => {
      if (failNext) {
        failNext = false;
        throw new Error('warehouse down');
      }
      paid.push(data.reference);
    });
    const forged = BODY.replace('500000', '5');
    expect((await deliver(url, forged, SIGNATURE)).status).toBe(400);
    const other = '{"event":"refund.processed","data":{}}';
    expect((await deliver(url, other, hmacHex(other, SECRET))).status).toBe(200);
    expect((await deliver(url, BODY, SIGNATURE)).status).toBe(500);
    expect((await deliver(url, BODY, SIGNATURE)).status).toBe(200);
    expect(paid).toEqual(['order_1042']);
    // The other routes still get parsed JSON.
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
  });

  test('runs as written: listens on HOST/PORT with WALLET_WEBHOOK_SECRET from the environment', async () => {
    const { url, output, stop } = await runExample('examples/express-webhook.ts', SECRET);
    try {
      expect(await deliver(url, BODY, SIGNATURE)).toEqual({ status: 200, json: { received: true } });
      await expect.poll(output).toContain('paid: order_1042, 500000 Kobo, @ada');
    } finally {
      stop();
    }
  });
});

describe('examples/next-app-router/route.ts', () => {
  test('POST verifies a real Request and acknowledges it', async () => {
    process.env['WALLET_WEBHOOK_SECRET'] = SECRET;
    try {
      const { POST } = await import('../../examples/next-app-router/route.js');
      const request = (body: string, signature: string) =>
        new Request('https://shop.example/api/webhooks/wallet', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-wallet-signature': signature },
          body,
        });
      const ok = await POST(request(BODY, SIGNATURE));
      expect([ok.status, await ok.json()]).toEqual([200, { received: true }]);
      const forged = await POST(request(BODY, hmacHex(BODY, OTHER_SECRET)));
      expect([forged.status, await forged.json()]).toEqual([400, { received: false }]);
    } finally {
      delete process.env['WALLET_WEBHOOK_SECRET'];
    }
  });
});

describe("verifyWebhook's own @example (what a merchant pastes)", () => {
  test('answers a forgery 400, but a genuine delivery of an unexpected shape 5xx, so it comes again', async () => {
    const root = new URL('../..', import.meta.url).pathname;
    const [example] = extractExamples(root, 'src/webhooks').filter((e) =>
      e.code.includes('verifyWebhook(req.body'),
    );
    // Run as written: its own file beside this one (its imports resolve as a merchant's would).
    const file = new URL(`./tsdoc-example-${process.pid}.ts`, import.meta.url).pathname;
    writeFileSync(file, `${example!.code}\nexport { app };\n`);
    const paid: string[] = [];
    Object.assign(globalThis, { fulfil: (reference: string) => void paid.push(reference) });
    process.env['WALLET_WEBHOOK_SECRET'] = SECRET;
    try {
      const { app } = (await import(/* @vite-ignore */ file)) as { app: Express };
      const { url, server } = await listen(app);
      servers.push(server);
      const route = `${url}/webhooks/wallet`;
      expect((await deliver(route, BODY, SIGNATURE)).status).toBe(200);
      expect((await deliver(route, BODY, hmacHex(BODY, OTHER_SECRET))).status).toBe(400);
      // Signed by the service, but an amount as a string: invalid_payload, genuine.
      const odd = BODY.replace('500000', '"500000"');
      expect((await deliver(route, odd, hmacHex(odd, SECRET))).status).toBeGreaterThanOrEqual(500);
      expect(paid).toEqual(['order_1042']);
    } finally {
      rmSync(file, { force: true });
      delete process.env['WALLET_WEBHOOK_SECRET'];
      delete (globalThis as { fulfil?: unknown }).fulfil;
    }
  });
});
