/** The sandbox's public shape: its options, and what `createSandbox()` returns. */
import type { SandboxCustomer, SandboxCustomerInit } from './state/customers.js';
import type { FetchDispatcher, SandboxMswHandler } from './transports/in-process.js';
import type { SandboxRequestContext } from './endpoints/router.js';
import type { SandboxListenOptions, SandboxServer } from './transports/server.js';
import type {
  SandboxCharge,
  SandboxDebit,
  SandboxDeliveryAttempt,
  SandboxRefund,
  SandboxRequestRecord,
} from './state/records.js';
import type { SandboxFaults } from './endpoints/faults.js';
import type { SandboxClock } from './state/clock.js';
import type { SandboxLogger } from './endpoints/log.js';
import type { SandboxSeedCharge, SandboxSeedResult } from './state/seed.js';
import type { WebhookDelivery, WebhookRetryOptions, WebhookTarget } from './webhooks/sender.js';

/** Options of `createSandbox()`. @expand */
export interface SandboxOptions {
  /** The base URL to give the SDK; its path (`…/api`) prefixes every route, `listen()`'s too. @default 'https://sandbox.wallet.test' */
  baseUrl?: string;
  /** Where `authorize()` sends the signed `charge.success`; needs `webhookSecret`. @default undefined */
  webhookUrl?: string;
  /** The secret deliveries are signed with: give your webhook handler the same one. @default undefined */
  webhookSecret?: string;
  /** Retries of a failed or slow delivery. @default { attempts: 5, delayMs: 50, maxDelayMs: 10000, timeoutMs: 2000 } */
  webhookRetry?: WebhookRetryOptions;
  /**
   * More customers, added to `defaultSandboxCustomers` (one with the same handle replaces it). @default []
   *
   * @example
   * ```ts
   * const sandbox = createSandbox({
   *   customers: [{ handle: '@chioma', phone: '+2348000000003', name: 'Chioma Obi',
   *     banks: [{ bankId: 'bnk_chioma_uba', bankName: 'UBA', bankCode: '033', accountNumber: '0011223344' }] }],
   * });
   * ```
   */
  customers?: readonly SandboxCustomerInit[];
  /** The IP allow list: requests from any other address answer 403. @default undefined (every address) */
  allowedIps?: readonly string[];
  /** The caller's IP for MSW, `dispatcher` and `fetch` without a context; `listen()` uses the socket's. @default '127.0.0.1' */
  clientIp?: string;
  /** How long a dispatched prompt lives before the charge expires, ms. @default 600000 (10 minutes) */
  promptTtlMs?: number;
  /** The sandbox's time: read each time on the real clock, once (its start) on the manual one. @default () => new Date() */
  now?: () => Date;
  /**
   * `'manual'` stops the sandbox's time; only `advance()` moves it: prompts expire past their `expiresAt`,
   * paid charges settle at 10:00 Lagos time the next Lagos day (`settlement` is `null` until then; at once
   * on the real clock), and a held `waitForOutcome` poll answers the moment the test ends its wait.
   * @default 'real'
   *
   * @example
   * ```ts
   * const sandbox = createSandbox({ clock: 'manual', now: () => new Date('2026-03-02T08:00:00Z') });
   * const outcome = wallet.charges.waitForOutcome('order_1');
   * sandbox.advance(10 * 60_000); // past expiresAt: the outcome is FAILED
   * ```
   */
  clock?: SandboxClock;
  /** Where to log a line per request answered and per delivery attempt (`console`). @default undefined (no log) */
  logger?: SandboxLogger;
  /**
   * Fault injection, to prove retry paths: a seeded share of API requests answered with a 5xx, a reset
   * or (if `kinds` names `'rate-limit'`) a 429 with `Retry-After`, and delays. @default undefined (no faults)
   *
   * @example
   * ```ts
   * const sandbox = createSandbox({ faults: { failRate: 0.2, latency: [5, 50], seed: 42 } });
   * ```
   */
  faults?: SandboxFaults;
  /** How many entries `requests` and `deliveries` keep, each; older ones are dropped. @default 1000 */
  historyLimit?: number;
  /** Idempotency keys kept (each scoped to its API key, one limit for all); past it the oldest goes. @default 10000 */
  idempotencyKeyLimit?: number;
  /**
   * Charges (and refunds and debits, each) kept. Past it the oldest finished go, a hundredth at a time
   * (logged); a waiting charge never goes: if all wait, resolve answers 503. @default 100000
   */
  maxCharges?: number;
}

/** What `authorize()` did. */
export interface AuthorizeResult {
  /** The charge, now `SUCCESS`. */
  readonly charge: SandboxCharge;
  /** The first attempt to deliver `charge.success` (`null` without a `webhookUrl`); see `settled`. */
  readonly webhook: WebhookDelivery | null;
}

/** The sandbox: serve it, play the customer, and inspect what happened. */
export interface Sandbox {
  /** The base URL of the MSW handlers (the `baseUrl` option). */
  readonly baseUrl: string;
  /**
   * The whole sandbox as a bound Fetch-style handler (Hono, Next.js route handlers, your own server).
   * An injected reset (see `faults`) is answered `Response.error()`: carry it as a dropped connection.
   *
   * @example
   * ```ts
   * const response = await sandbox.fetch(new Request(`${sandbox.baseUrl}/v1/charges/verify/order_1`, {
   *   headers: { authorization: 'Bearer sk_test_123' },
   * }));
   * ```
   */
  readonly fetch: (request: Request, context?: SandboxRequestContext) => Promise<Response>;
  /**
   * MSW request handlers for `baseUrl`. Loads msw on first access; throws a clear error without it.
   *
   * @example
   * ```ts
   * const server = setupServer(...sandbox.handlers);
   * ```
   */
  readonly handlers: SandboxMswHandler[];
  /**
   * An undici `Dispatcher` that answers in process, with no sockets; pass it to the SDK.
   *
   * @example
   * ```ts
   * const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
   * ```
   */
  readonly dispatcher: FetchDispatcher;
  /**
   * Serves the sandbox over HTTP on loopback.
   *
   * @example
   * ```ts
   * const { url, close } = await sandbox.listen();
   * const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: url });
   * // ...
   * await close();
   * ```
   */
  listen(options?: SandboxListenOptions): Promise<SandboxServer>;
  /**
   * Plays the customer authorizing a pending charge: `SUCCESS` (fee, `netAmount`, settlement, `paidAt`),
   * one debit, and the signed `charge.success` to `webhookUrl`. Resolves after the first delivery attempt
   * (retries go on). Rejects with a `SandboxError` 404 (unknown) or 409 (not pending), or a `ValidationError`.
   *
   * @example
   * ```ts
   * const { webhook } = await sandbox.authorize('order_1');
   * if (webhook?.retrying) await webhook.settled; // wait for the retries too
   * ```
   */
  authorize(reference: string): Promise<AuthorizeResult>;
  /**
   * Sends the charge's last webhook again as a new delivery; resolves like `authorize()`. Rejects with a
   * `SandboxError` 404 (unknown) or 409 (no webhook: never authorized, or no `webhookUrl`).
   */
  redeliver(reference: string): Promise<WebhookDelivery>;
  /**
   * Sends a past delivery (`id` from `deliveries`) again, byte for byte, to the current webhook URL: your
   * dedupe should catch it. Resolves like `authorize()`; rejects with a `SandboxError` 404 (id not held)
   * or 409 (no `webhookUrl`). Over HTTP: `GET /_sandbox/deliveries`, `POST /_sandbox/deliveries/{id}/replay`.
   */
  replay(id: string): Promise<WebhookDelivery>;
  /** Plays the customer declining a pending charge: it becomes `FAILED`. Rejects like `authorize`. */
  decline(reference: string): Promise<SandboxCharge>;
  /** Ends a pending charge's prompt now; verify then reports `FAILED`, and it may be dispatched again. */
  expire(reference: string): Promise<SandboxCharge>;
  /**
   * Moves the manual clock `ms` forward (prompts expire, charges settle, held polls answer) and returns
   * the time; a `SandboxError` 409 on the real clock. Over HTTP: `POST /_sandbox/clock` `{ "advance": ms }`.
   */
  advance(ms: number): Date;
  /** The sandbox's time now: the manual clock's, or the real one's. */
  now(): Date;
  /** Adds a customer, or replaces one with the same handle. */
  addCustomer(customer: SandboxCustomerInit): SandboxCustomer;
  /**
   * Puts many charges (100,000 in well under a second) into the sandbox, in any state a reconciliation
   * meets: paid (the fee rule's fee or yours), pending for `promptTtlMs`, failed, expired, refunded in part
   * or in full; with debits and refunds, no webhook. All rows or none: one `ValidationError` names each bad
   * field, held or repeated reference, unknown `handle` (`3.amount: ...`). Past `maxCharges` the oldest
   * finished go (logged). Over HTTP: `POST /_sandbox/seed`, a JSON array or JSON lines, no key.
   *
   * @example
   * ```ts
   * sandbox.seed([
   *   { reference: 'order_1', amount: 500_000, status: 'SUCCESS' },
   *   { reference: 'order_2', amount: 250_000, status: 'SUCCESS', fee: 1, refunded: 100_000 },
   *   { reference: 'order_3', amount: 120_000, status: 'PENDING_AUTHORIZATION' },
   *   { reference: 'order_4', amount: 80_000, status: 'FAILED', handle: '@tunde' },
   * ]);
   * const { status } = await wallet.charges.verify('order_1'); // 'SUCCESS'
   * ```
   */
  seed(charges: readonly SandboxSeedCharge[]): SandboxSeedResult;
  /**
   * Sets where webhooks go from now on (`undefined` stops them), keeping everything else. Over HTTP:
   * `POST /_sandbox/webhook` `{ "url", "secret" }` or `{ "url": null }`: no restart of `wallet-sandbox`.
   *
   * @example
   * ```ts
   * sandbox.setWebhook({ url: 'http://127.0.0.1:3000/webhooks/wallet', secret: 'whsec_demo' });
   * ```
   */
  setWebhook(target: WebhookTarget | undefined): void;
  /** Sets the IP allow list; `undefined` allows every address. */
  setAllowedIps(ips: readonly string[] | undefined): void;
  /** The charge with this reference, or `undefined`. */
  charge(reference: string): SandboxCharge | undefined;
  /** Every customer, with all banks. A frozen snapshot. */
  readonly customers: readonly SandboxCustomer[];
  /** Every charge, oldest first. A frozen snapshot. */
  readonly charges: readonly SandboxCharge[];
  /** Every refund, in order. A frozen snapshot. */
  readonly refunds: readonly SandboxRefund[];
  /** Every debit of a customer: one per authorized charge. A frozen snapshot. */
  readonly debits: readonly SandboxDebit[];
  /** Webhook delivery attempts, in order: the newest `historyLimit`. A frozen snapshot. */
  readonly deliveries: readonly SandboxDeliveryAttempt[];
  /** API requests answered (not the `/_sandbox/` controls): the newest `historyLimit`. A frozen snapshot. */
  readonly requests: readonly SandboxRequestRecord[];
  /** Forgets all that happened (idempotency keys too), stops webhook retries; restores customers, allow list, clock. */
  reset(): void;
  /** Stops `listen()`'s servers, webhook retries, held polls and injected delays; the `dispatcher` works on. */
  close(): Promise<void>;
}
