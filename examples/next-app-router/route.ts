/**
 * A Next.js App Router webhook route: save as `app/api/webhooks/wallet/route.ts`.
 *
 * Route handlers get a Fetch `Request` whose body nobody has read, so the handler reads the raw
 * bytes itself; there is no body parser to turn off. It uses Web Crypto, so it also runs with
 * `export const runtime = 'edge'`.
 */
import { createWebhookHandler } from '@wallet/node/webhooks';
import type { ChargeSuccessData, FetchWebhookHandler } from '@wallet/node/webhooks';

async function markPaid(data: ChargeSuccessData): Promise<void> {
  // Deduplicate on `charge.success:${data.reference}` (a unique key in your database), and confirm
  // with `await wallet.charges.verify(data.reference)` before giving value.
  console.log(`paid: ${data.reference}, ${data.amount} Kobo`);
  await Promise.resolve();
}

let handler: FetchWebhookHandler | undefined;

/**
 * Created on the first delivery rather than at import, because `next build` imports route modules
 * where the secret may not be set; a missing secret then fails that delivery (500, so it comes again).
 */
export async function POST(request: Request): Promise<Response> {
  handler ??= createWebhookHandler({
    secret: process.env['WALLET_WEBHOOK_SECRET'] ?? '',
    async onEvent(event) {
      if (event.event === 'charge.success') await markPaid(event.data);
    },
  });
  return handler(request);
}
