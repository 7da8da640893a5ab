// #region app-checkout
import { randomUUID } from 'node:crypto';

import { wallet } from './wallet.js';

/** One row per payment attempt in your database, written before the push: its id is the key. */
export interface PaymentAttempt {
  id: string;
  orderId: string;
  bankId: string;
  authChannel: 'wallet_push' | 'wallet_qr';
}

/** Your payment attempts table (SQL, Redis, …): what checkout needs from it. */
export interface AttemptTable {
  insert(attempt: PaymentAttempt): Promise<void>;
}

/** Starts the payment of an order: records a new attempt, then Ada gets a push on her phone. */
export async function startCheckout(
  order: { id: string; handle: string; amount: number },
  attempts: AttemptTable,
  authChannel: PaymentAttempt['authChannel'] = 'wallet_push',
) {
  const { linkedBanks } = await wallet.charges.resolveHandle({
    handle: order.handle,
    amount: order.amount,
    reference: order.id,
  });
  const attempt = { id: randomUUID(), orderId: order.id, bankId: linkedBanks[0]!.bankId, authChannel };
  await attempts.insert(attempt); // stored before sending: a crash after this line keeps its key
  return sendAttempt(attempt);
}

/** Sends an attempt, first or again (after a timeout, or on restart): its own key, so one push. */
export function sendAttempt(attempt: PaymentAttempt) {
  return wallet.charges.dispatch(
    { reference: attempt.orderId, bankId: attempt.bankId, authChannel: attempt.authChannel },
    { idempotencyKey: attempt.id },
  );
}

export async function isPaid(orderId: string): Promise<boolean> {
  return (await wallet.charges.verify(orderId)).status === 'SUCCESS';
}
// #endregion app-checkout
