/**
 * An Express 5 webhook endpoint for Wallet deliveries.
 *
 *   WALLET_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx examples/express-webhook.ts
 *
 * It listens on PORT (default 3000) on every interface, or on HOST when set (127.0.0.1 for local tests).
 *
 * The webhook route gets the raw body from `express.raw()`, mounted on that route and before
 * `express.json()`: the signature covers the exact bytes, and re-serialized JSON never matches.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

import express from 'express';
import type { Express } from 'express';

import { createNodeWebhookHandler, memoryDedupeStore } from '@wallet/node/webhooks';
import type { ChargeSuccessData, WebhookSecret } from '@wallet/node/webhooks';

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Gives value for a paid charge. Before shipping goods, confirm the charge with the API, for
   * example `(await wallet.charges.verify(data.reference)).status === 'SUCCESS'` with the amount you
   * expected: a webhook says a charge was paid, the API is the authority on it.
   *
   * @default logs the payment
   */
  fulfil?: (data: ChargeSuccessData) => void | Promise<void>;
}

/** Builds the app; `secret` may be an array while you rotate it. */
export function createApp(secret: WebhookSecret, options: AppOptions = {}): Express {
  const fulfil =
    options.fulfil ??
    ((data: ChargeSuccessData) =>
      console.log(`paid: ${data.reference}, ${data.amount} Kobo, ${data.customer.handle}`));
  const app = express();
  app.post(
    '/webhooks/wallet',
    express.raw({ type: 'application/json', limit: '1mb' }),
    createNodeWebhookHandler({
      secret,
      // Deliveries repeat (a lost 200, a retry while fulfil is still running): each event runs once,
      // and a copy that arrives meanwhile is answered 503 to come again, not 200 (the first may fail).
      // One process only; several instances share redisDedupeStore, and your database keeps a
      // unique key on the reference in production.
      dedupe: memoryDedupeStore(),
      async onEvent(event) {
        if (event.event !== 'charge.success') return; // acknowledge kinds this app does not use
        await fulfil(event.data); // throws → 500 → the service delivers again
      },
    }),
  );
  // Parsed JSON for every other route, mounted after the webhook route.
  app.use(express.json());
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  return app;
}

function main(): void {
  const secret = process.env['WALLET_WEBHOOK_SECRET'];
  if (!secret) throw new Error('Set WALLET_WEBHOOK_SECRET to your webhook secret.');
  const port = Number(process.env['PORT'] ?? 3000);
  const host = process.env['HOST'];
  const app = createApp(secret);
  // Express 5 calls this with the error when listening fails (a port in use, say).
  const onListening = (error?: Error): void => {
    if (error) {
      console.error(`Cannot listen on port ${port}: ${error.message}`);
      process.exitCode = 1;
      return;
    }
    const { port: bound } = server.address() as AddressInfo;
    console.log(`Listening for Wallet webhooks on http://${host ?? 'localhost'}:${bound}/webhooks/wallet`);
  };
  const server = host ? app.listen(port, host, onListening) : app.listen(port, onListening);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
