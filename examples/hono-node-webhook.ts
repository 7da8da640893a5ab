/**
 * A Hono webhook endpoint for Wallet deliveries, on Node with `@hono/node-server`.
 *
 *   WALLET_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx examples/hono-node-webhook.ts
 *
 * It listens on PORT (default 3000) on every interface, or on HOST when set (127.0.0.1 for local tests).
 *
 * On Node, Hono's `c.env` holds the Node server's bindings, not your environment variables: read the
 * secret from `process.env`, once, when the app is built. (On Cloudflare Workers it is the other way
 * round: the secret is a binding in `c.env`.) The handler gets the untouched `Request` as
 * `c.req.raw` and reads the raw body itself, which is what the signature covers.
 */
import { pathToFileURL } from 'node:url';

import { serve } from '@hono/node-server';
import { Hono } from 'hono';

import { createWebhookHandler } from '@wallet/node/webhooks';
import type { ChargeSuccessData, WebhookSecret } from '@wallet/node/webhooks';

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Gives value for a paid charge; confirm it with `wallet.charges.verify(reference)` first.
   *
   * @default logs the payment
   */
  fulfil?: (data: ChargeSuccessData) => void | Promise<void>;
}

/** Builds the app; `secret` may be an array while you rotate it. */
export function createApp(secret: WebhookSecret | undefined, options: AppOptions = {}): Hono {
  const fulfil =
    options.fulfil ??
    ((data: ChargeSuccessData) =>
      console.log(`paid: ${data.reference}, ${data.amount} Kobo, ${data.customer.handle}`));
  const webhook = createWebhookHandler({
    secret,
    async onEvent(event) {
      if (event.event === 'charge.success') await fulfil(event.data); // throws → 500 → delivered again
    },
  });
  const app = new Hono();
  app.post('/webhooks/wallet', (c) => webhook(c.req.raw));
  app.get('/health', (c) => c.json({ ok: true }));
  return app;
}

function main(): void {
  const port = Number(process.env['PORT'] ?? 3000);
  const hostname = process.env['HOST'];
  const app = createApp(process.env['WALLET_WEBHOOK_SECRET']);
  serve({ fetch: app.fetch, port, ...(hostname ? { hostname } : {}) }, (info) => {
    console.log(
      `Listening for Wallet webhooks on http://${hostname ?? 'localhost'}:${info.port}/webhooks/wallet`,
    );
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
