// Charges and refunds; `verifyMany`, `reconcile` and `waitForOutcome` load their files on first use.
import type { APIPromise, RequestFn, RequestOptions } from '../core/transport.js';
import { Recent } from '../core/idempotency.js';
import type { Accepted, Operation } from '../core/types.js';
import { ResponseValidationError } from '../errors/call.js';
import { amountOn, path, quoted } from '../internal/values.js';
import type {
  ChargeDispatch,
  DispatchParams,
  Refund,
  RefundParams,
  ResolveHandleParams,
  ResolvedCustomer,
  Transaction,
} from '../types.js';
import type { LedgerRow, ReconcileLine, ReconcileOptions } from './reconcile.js';
import type { AnyIterable, VerifyFn, VerifyManyOptions, VerifyResult } from './verify-many.js';
import type { WaitForOutcomeOptions } from './wait-for-outcome.js';

// A handle is sent with or without its `@` and answered with it, in any case; a phone number is
// answered as the customer's handle, so it has nothing to compare.
function handleForm(value: unknown): unknown {
  if (typeof value !== 'string' || /^[+\d(]/.test(value.trim())) return undefined;
  return value.trim().replace(/^@/, '').toLowerCase();
}

// Each operation declared once: route, schemas, its words in messages, what its answer must echo.
const RESOLVE: Operation = {
  method: 'POST',
  route: path`/v1/charges/resolve-handle`,
  paramsName: 'resolveHandle parameters',
  paramsSchema: 'resolveHandleParams',
  dataSchema: 'resolvedCustomer',
  summary: (p) => `resolve of ${amountOn(p.amount, p.reference)}`,
  echoes: [{ field: 'customer.handle', param: 'handle', normalize: handleForm }],
};
const DISPATCH: Operation = {
  method: 'POST',
  route: path`/v1/charges/dispatch`,
  paramsName: 'dispatch parameters',
  paramsSchema: 'dispatchParams',
  dataSchema: 'chargeDispatch',
  summary: (p) => `dispatch of ${quoted(p.reference)}`,
  confirm: (p) => `charges.verify(${quoted(p.reference)})`,
  echoes: [
    { field: 'reference', param: 'reference' },
    { field: 'authChannel', param: 'authChannel' },
  ],
};
const VERIFY: Operation = {
  method: 'GET',
  route: path`/v1/charges/verify/${'reference'}`,
  paramsName: 'verify reference',
  paramsSchema: 'verifyParams',
  dataSchema: 'transaction',
  summary: (p) => `verify of ${quoted(p.reference)}`,
};
// No confirm: verify shows the charge, not whether this refund went through. The spec's refund
// answer has no reference, but one that carries it must carry this one.
const REFUND: Operation = {
  method: 'POST',
  route: path`/v1/refunds`,
  paramsName: 'refund parameters',
  paramsSchema: 'refundParams',
  dataSchema: 'refund',
  summary: (p) =>
    p.amount === undefined
      ? `full refund of ${quoted(p.reference)}`
      : `refund of ${amountOn(p.amount, p.reference)}`,
  echoes: [
    { field: 'amount', param: 'amount' },
    { field: 'reference', param: 'reference' },
  ],
};

/** How many references are remembered before the one dispatched longest ago is forgotten. */
export const DISPATCH_MEMORY_SIZE = 5_000;

/** When this client's last prompt for each recent reference expires (epoch ms, this machine's clock). */
export class DispatchMemory extends Recent<number> {
  constructor() {
    super(DISPATCH_MEMORY_SIZE);
  }
  /** Records a successful dispatch; the answer's `Date` moves the expiry onto this machine's clock. */
  remember(reference: string, expiresAt: string, serverDate?: string): void {
    const expires = Date.parse(expiresAt);
    const served = Date.parse(serverDate ?? '');
    if (!Number.isNaN(expires))
      this.set(reference, Number.isNaN(served) ? expires : Date.now() + expires - served);
  }
  /** The expiry of the last prompt this client dispatched for `reference`. */
  expiryOf(reference: string): number | undefined {
    return this.get(reference);
  }
}

/** Charges: find the customer, send the authorization prompt, confirm the outcome. */
export class Charges {
  readonly #request: RequestFn;
  readonly #redact: (text: string) => string;
  readonly #dispatches = new DispatchMemory();
  readonly #verify: VerifyFn = (ref, o) => this.verify(ref, o);
  readonly #remember: Accepted = (data, response) => {
    const { reference, expiresAt } = data as ChargeDispatch;
    this.#dispatches.remember(reference, expiresAt, response.headers.date);
  };
  // Refuses a verify answered about another reference (a cache mixing answers up): `reference_mismatch`.
  readonly #sameReference: Accepted = (data, response, params) => {
    const answered = (data as Transaction).reference;
    const reference = params.reference as string;
    // The SDK scrubs its key from answers, so a reference that holds the key comes back scrubbed.
    if (answered === reference || answered === this.#redact(reference)) return;
    const message = `the answer is about ${quoted(answered)}, not ${quoted(reference)}: refused, never read as this reference's charge`;
    const issues = [{ path: 'data.reference', message: this.#redact(message) }];
    const call = { attempts: response.attempts, outcomeUnknown: false };
    const endpoint = `GET ${VERIFY.route.template}`;
    throw new ResponseValidationError(endpoint, response.status, data, issues, call, 'reference_mismatch');
  };

  /** @param redact - the client's scrubber, for messages this resource writes itself. @internal */
  constructor(request: RequestFn, redact: (text: string) => string = (text) => text) {
    this.#request = request;
    this.#redact = redact;
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
    return this.#request<ResolvedCustomer>(RESOLVE, params, options);
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
    // Remembered only once the service accepted it: waitForOutcome's default deadline follows it.
    return this.#request<ChargeDispatch>(DISPATCH, params, options, this.#remember);
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
   * @throws {@link ResponseValidationError} with code `reference_mismatch` when the answer is
   * about another reference.
   */
  verify(reference: string, options?: RequestOptions): APIPromise<Transaction> {
    return this.#request<Transaction>(VERIFY, { reference }, options, this.#sameReference);
  }

  /**
   * Verifies many references, politely: at most `concurrency` in flight, every worker pausing on a
   * 429 or `Retry-After`, each failure (after retries) on its own result. Takes any iterable or
   * async iterable; results come in input order, in flat memory.
   *
   * @throws {@link ValidationError} for bad options or an input that is no list, before anything is sent.
   * @throws {@link RequestAbortedError} when `options.signal` fires (results already yielded stand).
   * @example
   * ```ts
   * for await (const r of wallet.charges.verifyMany(['order_1041', 'order_1042'], { concurrency: 4 })) {
   *   if (r.error) console.error(r.reference, r.error.message);
   *   else console.log(r.reference, r.transaction.status);
   * }
   * ```
   */
  async *verifyMany(
    references: AnyIterable<string>,
    options?: VerifyManyOptions,
  ): AsyncGenerator<VerifyResult, void, undefined> {
    yield* (await import('./verify-many.js')).verifyMany(this.#verify, references, options);
  }

  /**
   * Reconciles your ledger against the service: one {@link ReconcileLine} per row, in input order,
   * with its {@link Verdict}. Read-only: it only verifies. Rows are verified as
   * {@link Charges.verifyMany} does; a malformed row gets the verdict `error` without a request.
   *
   * @throws {@link ValidationError} for bad options or an input that is no list, before anything is sent.
   * @throws {@link RequestAbortedError} when `options.signal` fires (lines already yielded stand).
   * @example
   * ```ts
   * const ledger = [
   *   { reference: 'order_1041', amount: 450_000, status: 'paid' as const },
   *   { reference: 'order_1042', amount: 120_000, status: 'pending' as const },
   * ];
   * for await (const line of wallet.charges.reconcile(ledger, { concurrency: 8 })) {
   *   if (line.verdict === 'paid_not_recorded') await fulfil(line.reference, line.expected.amount);
   * }
   * ```
   */
  async *reconcile<Row extends LedgerRow>(
    ledger: AnyIterable<Row>,
    options?: ReconcileOptions,
  ): AsyncGenerator<ReconcileLine<Row>, void, undefined> {
    yield* (await import('./reconcile.js')).reconcile(this.#verify, ledger, options);
  }

  /**
   * Waits for the customer's answer: polls {@link Charges.verify} (backing off to every 5 s,
   * honouring `Retry-After`, retrying 429s, 5xx and lost connections) until the charge is no longer
   * `PENDING_AUTHORIZATION` / `PENDING_SCAN`, and resolves to that transaction whatever its status.
   * For pages and servers without a webhook endpoint: the webhook stays the primary signal.
   *
   * @throws {@link WaitTimeoutError} when time runs out, with the last transaction seen.
   * @throws {@link RequestAbortedError} as soon as `options.signal` fires.
   * @example
   * ```ts
   * const bankId = linkedBanks[0]!.bankId;
   * await wallet.charges.dispatch({ reference: 'order_1042', bankId, authChannel: 'wallet_push' });
   * const tx = await wallet.charges.waitForOutcome('order_1042');
   * if (tx.status === 'SUCCESS') await fulfil(tx.reference, tx.amount);
   * else console.log('not paid:', tx.status);
   * ```
   */
  async waitForOutcome(reference: string, options?: WaitForOutcomeOptions): Promise<Transaction> {
    const expiry = typeof reference === 'string' ? this.#dispatches.expiryOf(reference) : undefined;
    const { waitForOutcome } = await import('./wait-for-outcome.js');
    return waitForOutcome(this.#verify, expiry, this.#redact, reference, options);
  }
}

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
    return this.#request<Refund>(REFUND, params, options);
  }
}
