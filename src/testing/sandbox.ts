/**
 * `createSandbox()`: the service simulated in memory, and the three ways of serving it. One state
 * machine answers everything; MSW, the in-process dispatcher and the loopback server only carry
 * requests to it.
 */
import { authorizeCharge, declineCharge, expireCharge } from './charges.js';
import { customerKey, defaultSandboxCustomers, toSandboxCustomer } from './customers.js';
import type { SandboxCustomer, SandboxCustomerInit } from './customers.js';
import { FetchDispatcher } from './fetch-dispatcher.js';
import { mswHandlers } from './msw.js';
import type { SandboxMswHandler } from './msw.js';
import { createRouter, normalizeIp } from './router.js';
import type { SandboxRequestContext } from './router.js';
import type { AuthorizeResult, Sandbox, SandboxOptions } from './sandbox-api.js';
import { startServer } from './server.js';
import type { SandboxListenOptions, SandboxServer } from './server.js';
import { SandboxState, snapshot } from './state.js';
import type {
  SandboxCharge,
  SandboxDebit,
  SandboxDeliveryAttempt,
  SandboxRefund,
  SandboxRequestRecord,
} from './state.js';
import { deliverWebhook, retryOptions } from './webhook-delivery.js';
import type { WebhookRetryOptions } from './webhook-delivery.js';

function checkWebhookOptions(options: SandboxOptions): void {
  if (options.webhookUrl === undefined) return;
  if (!options.webhookSecret) {
    throw new TypeError(
      'createSandbox: webhookUrl needs webhookSecret, the secret your webhook handler verifies with.',
    );
  }
  const url = new URL(options.webhookUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('createSandbox: webhookUrl must be an http: or https: URL.');
  }
}

class SandboxImpl implements Sandbox {
  readonly baseUrl: string;
  readonly dispatcher: FetchDispatcher;
  readonly fetch: (request: Request, context?: SandboxRequestContext) => Promise<Response>;
  readonly #options: SandboxOptions;
  readonly #state = new SandboxState();
  readonly #now: () => Date;
  readonly #retry: Required<WebhookRetryOptions>;
  readonly #servers = new Set<SandboxServer>();
  readonly #handle: (request: Request, context?: SandboxRequestContext) => Promise<Response>;
  #handlers: readonly unknown[] | undefined;

  constructor(options: SandboxOptions) {
    checkWebhookOptions(options);
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#retry = retryOptions(options.webhookRetry);
    this.baseUrl = (options.baseUrl ?? 'https://sandbox.wallet.test').replace(/\/+$/, '');
    this.#handle = createRouter({
      state: this.#state,
      now: this.#now,
      promptTtlMs: options.promptTtlMs ?? 600_000,
      defaultClientIp: options.clientIp ?? '127.0.0.1',
      controls: {
        authorize: (reference) => this.authorize(reference),
        decline: (reference) => this.decline(reference),
        expire: (reference) => this.expire(reference),
        reset: () => this.reset(),
        state: () => ({
          charges: this.charges,
          refunds: this.refunds,
          debits: this.debits,
          deliveries: this.deliveries,
          requests: this.requests,
        }),
      },
    });
    this.fetch = (request, context) => this.#handle(request, context);
    this.dispatcher = new FetchDispatcher((request) => this.#handle(request));
    this.reset();
  }

  get handlers(): SandboxMswHandler[] {
    this.#handlers ??= mswHandlers(this.baseUrl, (request) => this.#handle(request));
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- any by design: see SandboxMswHandler.
    return [...this.#handlers] as SandboxMswHandler[];
  }

  async listen(options?: SandboxListenOptions): Promise<SandboxServer> {
    const server = await startServer(this.#handle, options);
    this.#servers.add(server);
    return {
      url: server.url,
      port: server.port,
      close: async () => {
        this.#servers.delete(server);
        await server.close();
      },
    };
  }

  async authorize(reference: string): Promise<AuthorizeResult> {
    const charge = snapshot(authorizeCharge(this.#state, reference, this.#now()));
    const { webhookUrl, webhookSecret } = this.#options;
    if (webhookUrl === undefined || webhookSecret === undefined) return { charge, webhook: null };
    const webhook = await deliverWebhook({
      url: webhookUrl,
      secret: webhookSecret,
      event: 'charge.success',
      reference,
      data: { reference, amount: charge.amount, customer: { handle: charge.customer.handle } },
      retry: this.#retry,
      now: this.#now,
      record: (attempt) => this.#state.deliveries.push(attempt),
    });
    return { charge, webhook };
  }

  decline(reference: string): Promise<SandboxCharge> {
    return this.#control(() => declineCharge(this.#state, reference, this.#now()));
  }

  expire(reference: string): Promise<SandboxCharge> {
    return this.#control(() => expireCharge(this.#state, reference, this.#now()));
  }

  // Asynchronous like authorize(), so a refusal is always a rejection and never a synchronous throw.
  #control(change: () => SandboxCharge): Promise<SandboxCharge> {
    try {
      return Promise.resolve(snapshot(change()));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  addCustomer(init: SandboxCustomerInit): SandboxCustomer {
    const customer = toSandboxCustomer(init);
    this.#state.customers.set(customerKey(customer.handle), customer);
    return customer;
  }

  setAllowedIps(ips: readonly string[] | undefined): void {
    this.#state.allowedIps = ips === undefined ? undefined : new Set(ips.map(normalizeIp));
  }

  charge(reference: string): SandboxCharge | undefined {
    const charge = this.#state.charges.get(reference);
    return charge === undefined ? undefined : snapshot(charge);
  }

  get customers(): readonly SandboxCustomer[] {
    return snapshot([...this.#state.customers.values()]);
  }
  get charges(): readonly SandboxCharge[] {
    return snapshot([...this.#state.charges.values()]);
  }
  get refunds(): readonly SandboxRefund[] {
    return snapshot(this.#state.refunds);
  }
  get debits(): readonly SandboxDebit[] {
    return snapshot(this.#state.debits);
  }
  get deliveries(): readonly SandboxDeliveryAttempt[] {
    return snapshot(this.#state.deliveries);
  }
  get requests(): readonly SandboxRequestRecord[] {
    return snapshot(this.#state.requests);
  }

  reset(): void {
    this.#state.clear();
    for (const customer of [...defaultSandboxCustomers, ...(this.#options.customers ?? [])])
      this.addCustomer(customer);
    this.setAllowedIps(this.#options.allowedIps);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#servers].map((server) => server.close()));
    this.#servers.clear();
    await this.dispatcher.close();
  }
}

/**
 * Creates a sandbox: the service in memory, with `@ada` (phone `+2348000000001`) and `@tunde`
 * ready to charge. Accepts any `sk_test_` key.
 *
 * @example
 * ```ts
 * import { createSandbox } from '@wallet/node/testing';
 * import { Wallet } from '@wallet/node';
 *
 * const sandbox = createSandbox({ webhookUrl: 'http://127.0.0.1:3000/webhooks/wallet', webhookSecret: 'whsec_test' });
 * const wallet = new Wallet({ apiKey: 'sk_test_123', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
 *
 * const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_1' });
 * await wallet.charges.dispatch({ reference: 'order_1', bankId: linkedBanks[0]!.bankId, authChannel: 'wallet_push' });
 * await sandbox.authorize('order_1');
 * expect(sandbox.debits).toHaveLength(1);
 * ```
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new SandboxImpl(options);
}
