import type { Wallet } from '@wallet/node';
import { paid } from './mock-service.js';

/** A verify answer for a charge still waiting for its customer. */
export const pending = {
  ...paid,
  status: 'PENDING_AUTHORIZATION',
  fee: null,
  netAmount: null,
  settlement: null,
  paidAt: null,
};

/** Resolves `@ada` for `reference` and sends the push prompt, as a checkout does before waiting. */
export async function resolveAndDispatch(wallet: Wallet, reference: string, amount = 500_000) {
  const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount, reference });
  return wallet.charges.dispatch({ reference, bankId: linkedBanks[0]!.bankId, authChannel: 'wallet_push' });
}
