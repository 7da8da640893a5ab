import type { APIPromise } from '../core/api-promise.js';
import { amountOn, confirmWithVerify, quoted } from '../core/words.js';
import type { RequestFn, RequestOptions } from '../core/transport.js';
import type {
  ChargeDispatch,
  DispatchParams,
  ResolveHandleParams,
  ResolvedCustomer,
  Transaction,
} from '../types.js';

/** Charges: find the customer, send the authorization prompt, confirm the outcome. */
export class Charges {
  readonly #request: RequestFn;

  /** @param request - the transport's request function. @internal */
  constructor(request: RequestFn) {
    this.#request = request;
  }

  /**
   * Looks up a customer by handle or phone number, registers your reference and amount, and
   * returns the customer's profile, authorization channels and banks with an active mandate.
   *
   * @example
   * ```ts
   * const { customer, linkedBanks } = await wallet.charges.resolveHandle({
   *   handle: '@ada',
   *   amount: toKobo('5000'),
   *   reference: 'order_1042',
   * });
   * ```
   */
  resolveHandle(params: ResolveHandleParams, options?: RequestOptions): APIPromise<ResolvedCustomer> {
    return this.#request<ResolvedCustomer>({
      method: 'POST',
      what: 'resolveHandle parameters',
      params,
      paramsSchema: (s) => s.resolveHandleParams,
      route: '/v1/charges/resolve-handle',
      path: () => '/v1/charges/resolve-handle',
      dataSchema: (s) => s.resolvedCustomer,
      summary: (p) => `resolve of ${amountOn(p.amount, p.reference)}`,
      options,
    });
  }

  /**
   * Sends the authorization prompt: an in-app push (`wallet_push`) or a dynamic QR code
   * (`wallet_qr`, with `qrCodeUrl`). The outcome arrives later by webhook; confirm it with
   * {@link Charges.verify}.
   *
   * @example
   * ```ts
   * const prompt = await wallet.charges.dispatch({
   *   reference: 'order_1042',
   *   bankId: linkedBanks[0]!.bankId,
   *   authChannel: 'wallet_push',
   *   description: 'Order #1042',
   * });
   * ```
   */
  dispatch(params: DispatchParams, options?: RequestOptions): APIPromise<ChargeDispatch> {
    return this.#request<ChargeDispatch>({
      method: 'POST',
      what: 'dispatch parameters',
      params,
      paramsSchema: (s) => s.dispatchParams,
      route: '/v1/charges/dispatch',
      path: () => '/v1/charges/dispatch',
      dataSchema: (s) => s.chargeDispatch,
      summary: (p) => `dispatch of ${quoted(p.reference)}`,
      confirm: confirmWithVerify,
      options,
    });
  }

  /**
   * Confirms a transaction server to server. Give value only when `status` is `SUCCESS`: a
   * webhook says something happened, verify says what the service holds.
   *
   * @example
   * ```ts
   * const tx = await wallet.charges.verify('order_1042');
   * if (tx.status === 'SUCCESS') await fulfil(tx.reference, tx.amount);
   * ```
   */
  verify(reference: string, options?: RequestOptions): APIPromise<Transaction> {
    return this.#request<Transaction>({
      method: 'GET',
      what: 'verify reference',
      params: { reference },
      paramsSchema: (s) => s.verifyParams,
      route: '/v1/charges/verify/{reference}',
      // One encoded segment: `/`, `?`, `#`, `%` and spaces in a reference cannot reach another endpoint.
      path: (p) => `/v1/charges/verify/${encodeURIComponent(p.reference as string)}`,
      dataSchema: (s) => s.transaction,
      summary: (p) => `verify of ${quoted(p.reference)}`,
      options,
    });
  }
}
