// #region app-webhook
import { createWebhookHandler } from '@wallet/node/webhooks';

import { isPaid } from './checkout.js';

export const paidOrders = new Set<string>();

/** The webhook route (Next.js App Router style): confirm with the API, then fulfil once. */
export const POST = createWebhookHandler({
  secret: process.env.WALLET_WEBHOOK_SECRET!,
  onEvent: async (event) => {
    if (event.event === 'charge.success' && (await isPaid(event.data.reference))) {
      paidOrders.add(event.data.reference);
    }
  },
});
// #endregion app-webhook
