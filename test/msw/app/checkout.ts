// #region app-checkout
import { wallet } from './wallet.js';

/** Starts the payment of an order: Ada gets a push on her phone. */
export async function startCheckout(order: { id: string; handle: string; amount: number }) {
  const { linkedBanks } = await wallet.charges.resolveHandle({
    handle: order.handle,
    amount: order.amount,
    reference: order.id,
  });
  return wallet.charges.dispatch(
    { reference: order.id, bankId: linkedBanks[0]!.bankId, authChannel: 'wallet_push' },
    { idempotencyKey: `checkout-${order.id}` }, // a retried checkout never pushes twice
  );
}

export async function isPaid(orderId: string): Promise<boolean> {
  return (await wallet.charges.verify(orderId)).status === 'SUCCESS';
}
// #endregion app-checkout
