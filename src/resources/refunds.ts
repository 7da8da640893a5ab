import type { APIPromise } from '../core/transport.js';
import { path } from '../internal/route.js';
import { amountOn, quoted } from '../internal/words.js';
import type { RequestFn, RequestOptions } from '../core/transport.js';
import type { Refund, RefundParams } from '../types.js';

const CREATE = path`/v1/refunds`;

const refundSummary = (p: Record<string, unknown>): string =>
  p.amount === undefined
    ? `full refund of ${quoted(p.reference)}`
    : `refund of ${amountOn(p.amount, p.reference)}`;
// The spec's refund answer has no reference, but one that carries it must carry this one.
const REFUND_ECHOES = [
  { field: 'amount', param: 'amount' },
  { field: 'reference', param: 'reference' },
] as const;

/** Refunds of successful payments, to the customer's bank account. */
export class Refunds {
  readonly #request: RequestFn;

  /** @param request - the transport's request function. @internal */
  constructor(request: RequestFn) {
    this.#request = request;
  }

  /**
   * Refunds a successful payment, in part (`amount` in Kobo) or in full (no `amount`).
   *
   * @example
   * ```ts
   * await wallet.refunds.create({ reference: 'order_1042', amount: 100_000, reason: 'One item out of stock' });
   * await wallet.refunds.create({ reference: 'order_1043' }); // the whole amount
   * ```
   */
  create(params: RefundParams, options?: RequestOptions): APIPromise<Refund> {
    return this.#request<Refund>({
      method: 'POST',
      paramsName: 'refund parameters',
      params,
      paramsSchema: 'refundParams',
      route: CREATE,
      dataSchema: 'refund',
      // No confirm: verify shows the charge, not whether this refund went through.
      summary: refundSummary,
      echoes: REFUND_ECHOES,
      options,
    });
  }
}
