/**
 * A Fastify 5 webhook endpoint for Wallet deliveries.
 *
 *   WALLET_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx examples/fastify-webhook.ts
 *
 * It listens on PORT (default 3000) on 127.0.0.1, or on HOST when set.
 *
 * Fastify parses JSON bodies before the route runs, and the signature covers the raw bytes: the
 * webhook route lives in a plugin scope whose `application/json` parser keeps the body as a
 * `Buffer` (`parseAs: 'buffer'`), so the rest of the app keeps Fastify's JSON parsing. The route
 * hands the request and that Buffer to `createNodeWebhookHandler`, which answers on `reply.raw`.
 */
import { pathToFileURL } from 'node:url';

import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';

import { createNodeWebhookHandler } from '@wallet/node/webhooks';
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
export function createApp(secret: WebhookSecret | undefined, options: AppOptions = {}): FastifyInstance {
  const fulfil =
    options.fulfil ??
    ((data: ChargeSuccessData) =>
      console.log(`paid: ${data.reference}, ${data.amount} Kobo, ${data.customer.handle}`));
  const webhook = createNodeWebhookHandler({
    secret,
    async onEvent(event) {
      if (event.event === 'charge.success') await fulfil(event.data); // throws → 500 → delivered again
    },
  });
  const app = Fastify();
  void app.register(async (scope) => {
    // In this scope only: JSON bodies stay the bytes that were signed.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post('/webhooks/wallet', async (request, reply) => {
      // The handler writes the answer itself; Fastify must not send one too.
      reply.hijack();
      await webhook(Object.assign(request.raw, { body: request.body }), reply.raw);
    });
  });
  app.get('/health', async () => ({ ok: true }));
  return app;
}

async function main(): Promise<void> {
  const port = Number(process.env['PORT'] ?? 3000);
  const host = process.env['HOST'] ?? '127.0.0.1';
  const app = createApp(process.env['WALLET_WEBHOOK_SECRET']);
  const address = await app.listen({ port, host });
  console.log(`Listening for Wallet webhooks on ${address}/webhooks/wallet`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
