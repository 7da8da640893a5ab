import { APIPromise } from '../core/transport.js';
import { path } from '../internal/route.js';
import { amountOn, confirmWithVerify, quoted } from '../internal/words.js';
import type { AnswerHeaders, RequestFn, RequestOptions } from '../core/transport.js';
import type {
  ChargeDispatch,
  DispatchParams,
  ResolveHandleParams,
  ResolvedCustomer,
  Transaction,
} from '../types.js';
import { ResponseValidationError } from '../errors/validation.js';
import type { WithResponse } from '../core/transport.js';
import type { AnyIterable } from './ordered-pool.js';
import type { LedgerRow, ReconcileLine, ReconcileOptions } from './reconcile.js';
import type { VerifyManyOptions, VerifyResult } from './verify-many.js';
import {
  DispatchMemory,
  waitForOutcome,
  type VerifyFn,
  type WaitForOutcomeOptions,
} from './wait-for-outcome.js';

// Each route declared once: the template for tracing and the path are the same declaration.
const RESOLVE_HANDLE = path`/v1/charges/resolve-handle`;
const DISPATCH = path`/v1/charges/dispatch`;
// One encoded segment: `/`, `?`, `#`, `%` and spaces in a reference cannot reach another endpoint.
const VERIFY = path`/v1/charges/verify/${'reference'}`;

// A handle is sent with or without its `@` and answered with it, in any case; a phone number is
// answered as the customer's handle, so it has nothing to compare.
function handleForm(value: unknown): unknown {
  if (typeof value !== 'string' || /^[+\d(]/.test(value.trim())) return undefined;
  return value.trim().replace(/^@/, '').toLowerCase();
}

// What each call says about itself and checks in its answer, built once rather than per call.
const RESOLVE_WORDS = {
  summary: (p: Record<string, unknown>): string => `resolve of ${amountOn(p.amount, p.reference)}`,
  echoes: [{ field: 'customer.handle', param: 'handle', normalize: handleForm }],
} as const;
const DISPATCH_WORDS = {
  summary: (p: Record<string, unknown>): string => `dispatch of ${quoted(p.reference)}`,
  confirm: confirmWithVerify,
  echoes: [
    { field: 'reference', param: 'reference' },
    { field: 'authChannel', param: 'authChannel' },
  ],
} as const;
const verifySummary = (p: Record<string, unknown>): string => `verify of ${quoted(p.reference)}`;

/**
 * An answer must be about what was asked: a verify answered with another reference (a cache or a
 * gateway mixing up answers, a service bug) is refused with code `reference_mismatch`, never
 * returned as this reference's charge (a GET: `outcomeUnknown` stays false, nothing was changed).
 */
function sameReference(
  reference: string,
  answer: WithResponse<Transaction>,
  redact: (text: string) => string,
): WithResponse<Transaction> {
  const { data, response } = answer;
  // The SDK scrubs its key from answers, so a reference that holds the key comes back scrubbed.
  if (data.reference === reference || data.reference === redact(reference)) return answer;
  const message = `the answer is about ${quoted(data.reference)}, not ${quoted(reference)}: refused, never read as this reference's charge`;
  const issues = [{ path: 'data.reference', message: redact(message) }];
  const call = { attempts: response.attempts, outcomeUnknown: false };
  throw new ResponseValidationError(
    `GET ${VERIFY.template}`,
    response.status,
    data,
    issues,
    call,
    'reference_mismatch',
  );
}

/** Charges: find the customer, send the authorization prompt, confirm the outcome. */
export class Charges {
  readonly #request: RequestFn;
  readonly #redact: (text: string) => string;
  readonly #dispatches = new DispatchMemory();
  readonly #remember = (data: unknown, answer: AnswerHeaders): void => {
    const { reference, expiresAt } = data as ChargeDispatch;
    this.#dispatches.remember(reference, expiresAt, answer.header('date'));
  };

  /**
   * @param request - the transport's request function.
   * @param redact - the client's scrubber, for messages this resource writes itself.
   * @internal
   */
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
    return this.#request<ResolvedCustomer>({
      method: 'POST',
      paramsName: 'resolveHandle parameters',
      params,
      paramsSchema: 'resolveHandleParams',
      route: RESOLVE_HANDLE,
      dataSchema: 'resolvedCustomer',
      ...RESOLVE_WORDS,
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
      paramsName: 'dispatch parameters',
      params,
      paramsSchema: 'dispatchParams',
      route: DISPATCH,
      dataSchema: 'chargeDispatch',
      ...DISPATCH_WORDS,
      // Remembered only once the service accepted it: waitForOutcome's default deadline follows it.
      accepted: this.#remember,
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
   * @throws {@link ResponseValidationError} with code `reference_mismatch` when the answer is
   * about another reference.
   */
  verify(reference: string, options?: RequestOptions): APIPromise<Transaction> {
    const call = this.#request<Transaction>({
      method: 'GET',
      paramsName: 'verify reference',
      params: { reference },
      paramsSchema: 'verifyParams',
      route: VERIFY,
      dataSchema: 'transaction',
      summary: verifySummary,
      options,
    });
    const redact = this.#redact;
    return new APIPromise(call.withResponse().then((answer) => sameReference(reference, answer, redact)));
  }

  /**
   * Verifies many references, politely: at most `concurrency` in flight, one shared pause for
   * every worker when the service answers 429 or `Retry-After`, each failure (after a verify's
   * retries) reported on its own result, never the end of the run. Takes any iterable or async
   * iterable; results come in input order and memory stays flat however long the input.
   *
   * @throws {@link ValidationError} for bad options, before anything is sent.
   * @throws {@link RequestAbortedError} when `options.signal` fires (results already yielded stand).
   * @example
   * ```ts
   * for await (const r of wallet.charges.verifyMany(['order_1041', 'order_1042'], { concurrency: 4 })) {
   *   if (r.error) console.error(r.reference, r.error.message);
   *   else console.log(r.reference, r.transaction.status);
   * }
   * ```
   */
  verifyMany(
    references: AnyIterable<string>,
    options?: VerifyManyOptions,
  ): AsyncGenerator<VerifyResult, void, undefined> {
    const verify: VerifyFn = (ref, o) => this.verify(ref, o);
    // Loaded by the first run, so that a verify loads only what a verify needs.
    return (async function* () {
      yield* (await import('./verify-many.js')).verifyMany(verify, references, options);
    })();
  }

  /**
   * Reconciles your ledger against the service: one {@link ReconcileLine} per row, in input order,
   * with its {@link Verdict}. Read-only: it only verifies. Rows are verified as
   * {@link Charges.verifyMany} does; a malformed row gets the verdict `error` without a request.
   *
   * @throws {@link ValidationError} for bad options, before anything is sent.
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
  reconcile<Row extends LedgerRow>(
    ledger: AnyIterable<Row>,
    options?: ReconcileOptions,
  ): AsyncGenerator<ReconcileLine<Row>, void, undefined> {
    const verify: VerifyFn = (ref, o) => this.verify(ref, o);
    return (async function* () {
      yield* (await import('./reconcile.js')).reconcile(verify, ledger, options);
    })();
  }

  /**
   * Waits for the customer's answer: polls {@link Charges.verify} until the charge leaves
   * `PENDING_AUTHORIZATION` / `PENDING_SCAN`, and resolves to that transaction whatever its status
   * (`SUCCESS`, `FAILED`, or one the SDK does not know yet). Polls back off (to one every 5 s) and
   * honour `Retry-After`; 429s, 5xx and lost connections are retried underneath. By default it waits
   * until 5 s past the `expiresAt` of this client's last dispatch of the reference, else 2 minutes.
   * For checkout pages and servers without a webhook endpoint: the webhook stays the primary signal.
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
  waitForOutcome(reference: string, options?: WaitForOutcomeOptions): Promise<Transaction> {
    const verify: VerifyFn = (ref, o) => this.verify(ref, o);
    return waitForOutcome(verify, this.#dispatches, this.#redact, reference, options);
  }
}
