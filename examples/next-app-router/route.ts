/**
 * A Next.js App Router webhook route: save as `app/api/webhooks/wallet/route.ts`, on the Node.js
 * runtime (the default).
 *
 * Route handlers get a Fetch `Request` whose body nobody has read, so the handler reads the raw
 * bytes itself; there is no body parser to turn off. Built at module level: `next build` imports
 * the route where the secret may not be set, and a handler without its secret still builds, then
 * answers each delivery 500 naming WALLET_WEBHOOK_SECRET until it is set (Wallet delivers again).
 */
import { createWebhookHandler } from '@wallet/node/webhooks';
import type { ChargeSuccessData } from '@wallet/node/webhooks';

async function markPaid(data: ChargeSuccessData): Promise<void> {
  // Deduplicate on `charge.success:${data.reference}` (a unique key in your database), and confirm
  // with `await wallet.charges.verify(data.reference)` before giving value.
  console.log(`paid: ${data.reference}, ${data.amount} Kobo`);
  await Promise.resolve();
}

export const POST = createWebhookHandler({
  secret: process.env.WALLET_WEBHOOK_SECRET!,
  async onEvent(event) {
    if (event.event === 'charge.success') await markPaid(event.data);
  },
});
