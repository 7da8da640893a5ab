/**
 * A merchant's webhook route, run unchanged inside workerd, Bun and Deno: it imports only
 * `@wallet/node/webhooks`, so it also bundles into a Worker that never calls the API.
 */
import { createWebhookHandler, verifyWebhook, verifyWebhookAsync } from '@wallet/node/webhooks';

import { outcome, seen, type ScenarioInput, type WebhookReport } from './report.js';

/** A delivery signed by the test: every verifier the runtime has, on it and on a forgery. */
export async function webhookChecks(input: ScenarioInput): Promise<WebhookReport> {
  const { body, signature, secret } = input.webhook;
  const events: unknown[] = [];
  const refusals: unknown[] = [];
  const handle = createWebhookHandler({
    secret,
    onEvent: (event) => void events.push(event),
    onError: (error) => void refusals.push(seen(error).reason),
  });
  const delivery = (payload: string): Request =>
    new Request('https://merchant.example/webhooks/wallet', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wallet-signature': signature },
      body: payload,
    });
  const answered = await handle(delivery(body));
  // A forger changes the amount and keeps the signature.
  const forged = body.replace('"amount":500000', '"amount":1');
  return {
    async: await outcome(() => verifyWebhookAsync(body, signature, secret)),
    sync: await outcome(async () => verifyWebhook(new TextEncoder().encode(body), signature, secret)),
    handler: { status: answered.status, body: await answered.text(), events },
    forgedAsync: await outcome(() => verifyWebhookAsync(forged, signature, secret)),
    forgedHandlerStatus: (await handle(delivery(forged))).status,
    refusals,
  };
}
