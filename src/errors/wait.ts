/** `charges.waitForOutcome` ran out of time while the charge was still pending. */
import type { Transaction } from '../types.js';
import { WalletError, type WalletErrorName } from './base.js';

/** What a {@link WaitTimeoutError} is built from. */
export interface WaitTimeoutInit {
  /** The verify call that was polled, for example `GET /v1/charges/verify/order_1042`. */
  endpoint: string;
  /** The reference waited for. */
  reference: string;
  /** How long the wait lasted, ms. */
  timeout: number;
  /** How many verify calls were made. */
  attempts: number;
  /** The last transaction a poll returned, or `undefined` when no poll got one. */
  transaction: Transaction | undefined;
  /** Why the last poll failed, when it did (a 5xx, a 429, a lost connection). */
  cause?: unknown;
}

/**
 * The charge was still pending when `waitForOutcome` ran out of time. The charge itself goes on:
 * the customer may still authorize it until its prompt expires, so keep listening for the webhook
 * or call `verify` again before giving up on the order.
 *
 * @example
 * ```ts
 * try {
 *   const tx = await wallet.charges.waitForOutcome('order_1042', { timeout: 60_000 });
 *   if (tx.status === 'SUCCESS') await fulfil(tx.reference, tx.amount);
 * } catch (error) {
 *   if (error instanceof WaitTimeoutError) console.log('still', error.transaction?.status);
 *   else throw error;
 * }
 * ```
 */
export class WaitTimeoutError extends WalletError {
  override readonly name: WalletErrorName = 'WaitTimeoutError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'WaitTimeoutError';
  /** The verify call that was polled. */
  readonly endpoint: string;
  /** The reference waited for. */
  readonly reference: string;
  /** How long the wait lasted, ms. */
  readonly timeout: number;
  /** How many verify calls were made. */
  readonly attempts: number;
  /** The last transaction seen (still pending), or `undefined` when no poll returned one. */
  readonly transaction: Transaction | undefined;

  /** @param init - see {@link WaitTimeoutInit}. */
  constructor(init: WaitTimeoutInit) {
    const last = init.transaction ? `it was last seen ${init.transaction.status}` : 'no poll got an answer';
    super(
      `Charge '${init.reference}' had no outcome after ${init.timeout} ms (${init.attempts} poll(s); ${last}).` +
        ' The customer may still authorize it: keep your webhook, or verify it again later.',
      'wait_timeout',
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.endpoint = init.endpoint;
    this.reference = init.reference;
    this.timeout = init.timeout;
    this.attempts = init.attempts;
    this.transaction = init.transaction;
  }
}
