/** An idempotency key that would make the service answer for another request. */
import { WalletError, named, type CallInfo } from './base.js';

/** Why an {@link IdempotencyError} was thrown. */
export type IdempotencyErrorCode = 'idempotency_key_reused' | 'replay_mismatch';

/** What an {@link IdempotencyError} is built from. */
export interface IdempotencyErrorInit extends Partial<CallInfo> {
  /** Method and path of the call. */
  endpoint: string;
  /** The key in question. */
  idempotencyKey: string;
  /** The whole message. */
  message: string;
  /** For `replay_mismatch`: the `data` the service answered with. */
  received?: unknown;
}

/**
 * The service answers a repeated `X-Idempotency-Key` with the saved response of the first request
 * that carried it, whatever the new parameters. So one key must belong to one operation:
 * - `idempotency_key_reused`: this client already sent the key with other parameters; the call was
 *   refused before sending (nothing was sent, `outcomeUnknown` is false).
 * - `replay_mismatch`: the answer does not match the request (another reference, amount or
 *   channel): a different request's saved answer came back and this request was not carried out.
 *   `received` holds that answer.
 *
 * Either way, give each operation its own key, stored with the operation's record (the refund row,
 * the payment attempt) before sending, never a key per order.
 *
 * @example
 * ```ts
 * const refundRowId = crypto.randomUUID(); // saved with your refund row before sending
 * try {
 *   await wallet.refunds.create({ reference: 'order_1042', amount: 50_000 }, { idempotencyKey: refundRowId });
 * } catch (error) {
 *   if (error instanceof IdempotencyError) console.error('key already used for another operation:', error.idempotencyKey);
 *   else throw error;
 * }
 * ```
 */
export class IdempotencyError extends WalletError {
  declare readonly code: IdempotencyErrorCode;
  /** The key in question. */
  declare readonly idempotencyKey: string;
  /** For `replay_mismatch`, the `data` the service answered with; undefined otherwise. */
  readonly received: unknown;

  /** @param code - see the class. @param init - see {@link IdempotencyErrorInit}. */
  constructor(code: IdempotencyErrorCode, init: IdempotencyErrorInit) {
    super(init.message, code, { call: { attempts: 0, outcomeUnknown: false, ...init } });
    this.received = init.received;
  }
}

named({ IdempotencyError });
