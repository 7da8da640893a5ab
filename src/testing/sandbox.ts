/** `createSandbox()`: one in-memory state machine, and the three ways of serving it. */
import type { AuthorizeResult, Sandbox, SandboxOptions } from './api.js';
import { control } from './controls.js';
import { faultSource } from './endpoints/faults.js';
import { LogLines, deliveryLine } from './endpoints/log.js';
import { createRouter, normalizeIp, type Handle } from './endpoints/router.js';
import {
  checkCustomer,
  checkFetchArguments,
  checkValue,
  list,
  range,
  readListenOptions,
  readSandboxOptions,
  readWebhookTarget,
  text,
} from './options.js';
import { authorizeCharge, declineCharge, expireCharge, expireIfDue } from './state/charges.js';
import { Clock } from './state/clock.js';
import { defaultSandboxCustomers, toSandboxCustomer, withAt } from './state/customers.js';
import type { SandboxCustomer, SandboxCustomerInit } from './state/customers.js';
import type { SandboxCharge } from './state/records.js';
import { seedCharges, type SandboxSeedCharge, type SandboxSeedResult } from './state/seed.js';
import { SandboxState, snapshot } from './state/store.js';
import { FetchDispatcher, mswHandlers, type SandboxMswHandler } from './transports/in-process.js';
import { startServer, type SandboxListenOptions, type SandboxServer } from './transports/server.js';
import { WebhookSender, type WebhookDelivery, type WebhookTarget } from './webhooks/sender.js';

const MAX_ADVANCE_MS = 366 * 24 * 3_600_000;

class SandboxImpl implements Sandbox {
  readonly baseUrl: string;
  readonly dispatcher: FetchDispatcher;
  readonly fetch: Handle;
  readonly #options: SandboxOptions;
  readonly #state: SandboxState;
  readonly #clock: Clock;
  readonly #webhooks: WebhookSender;
  readonly #promptTtlMs: number;
  readonly #logger = new LogLines();
  readonly #servers = new Set<() => Promise<void>>();
  readonly #handle: Handle;
  readonly #basePath: string;
  #handlers: readonly unknown[] | undefined;

  constructor(options: SandboxOptions) {
    this.#options = options;
    this.#clock = new Clock(options.clock ?? 'real', options.now ?? (() => new Date()));
    this.#promptTtlMs = options.promptTtlMs ?? 600_000;
    this.#logger.attach(options.logger);
    this.#state = new SandboxState({
      history: options.historyLimit ?? 1000,
      maxCharges: options.maxCharges ?? 100_000,
      answers: options.idempotencyKeyLimit ?? 10_000,
    });
    this.#state.onForget = (references) =>
      this.#logger.note(
        this.#clock.now(),
        `sandbox full (maxCharges ${this.#state.limits.maxCharges}): forgot ${references.length} oldest finished ${references.length === 1 ? `charge, ${references[0]}` : `charges, ${references[0]} to ${references.at(-1)}`}`,
      );
    const { webhookUrl: url, webhookSecret: secret } = options;
    const target = url === undefined || secret === undefined ? undefined : { url, secret };
    const now = (): Date => this.#clock.now();
    this.#webhooks = new WebhookSender(target, options.webhookRetry, now, (attempt) => {
      this.#state.deliveries.push(attempt);
      this.#logger.write(attempt.ok ? 'info' : 'warn', deliveryLine(attempt));
    });
    const base = new URL(options.baseUrl ?? 'https://sandbox.wallet.test');
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.baseUrl = `${base.origin}${this.#basePath}`;
    const controls = {
      sandbox: this,
      state: this.#state,
      webhookUrl: () => this.#webhooks.target?.url ?? null,
      clock: options.clock ?? 'real',
    };
    this.#handle = createRouter({
      state: this.#state,
      clock: this.#clock,
      promptTtlMs: this.#promptTtlMs,
      defaultClientIp: options.clientIp ?? '127.0.0.1',
      basePath: this.#basePath,
      faults: faultSource(options.faults),
      logger: this.#logger,
      control: (request, path, pageBase) => control(controls, request, path, pageBase),
    });
    this.fetch = async (request, context) => {
      checkFetchArguments(request, context);
      return this.#handle(request, context);
    };
    this.dispatcher = new FetchDispatcher((request) => this.#handle(request));
    this.reset();
  }

  get handlers(): SandboxMswHandler[] {
    this.#handlers ??= mswHandlers(this.baseUrl, (request) => this.#handle(request));
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- any by design: see SandboxMswHandler.
    return [...this.#handlers] as SandboxMswHandler[];
  }

  async listen(given?: SandboxListenOptions): Promise<SandboxServer> {
    const options = readListenOptions(given);
    const server = await startServer(this.#handle, options, this.#basePath);
    const detach = this.#logger.attach(options?.logger);
    const stop = async (): Promise<void> => {
      this.#servers.delete(stop);
      detach();
      await server.close();
    };
    this.#servers.add(stop);
    return { url: server.url, port: server.port, close: stop };
  }

  async authorize(reference: string): Promise<AuthorizeResult> {
    const charge = this.#act('authorize', reference, authorizeCharge);
    return { charge, webhook: await this.#webhooks.sendPaid(this.#state, charge) };
  }

  async redeliver(reference: string): Promise<WebhookDelivery> {
    checkValue('redeliver() argument', 'reference', reference, text);
    return await this.#webhooks.resend(this.#state, reference);
  }

  async replay(id: string): Promise<WebhookDelivery> {
    checkValue('replay() argument', 'id', id, text);
    return await this.#webhooks.replay(this.#state, id);
  }

  // Asynchronous like authorize(), so a refusal is always a rejection, never a synchronous throw.
  decline(reference: string): Promise<SandboxCharge> {
    return new Promise((resolve) => resolve(this.#act('decline', reference, declineCharge)));
  }

  expire(reference: string): Promise<SandboxCharge> {
    return new Promise((resolve) => resolve(this.#act('expire', reference, expireCharge)));
  }

  // The customer (or the prompt's end) acts on a charge: held polls look again, and the log says so.
  #act(name: string, reference: string, change: typeof authorizeCharge): SandboxCharge {
    checkValue(`${name}() argument`, 'reference', reference, text);
    const charge = snapshot(change(this.#state, reference, this.#clock.now()));
    this.#clock.changed();
    this.#logger.note(this.#clock.now(), `customer ${name} ${reference}: ${charge.status}`);
    return charge;
  }

  advance(ms: number): Date {
    checkValue('advance() argument', 'ms', ms, range(0, MAX_ADVANCE_MS));
    const now = this.#clock.advance(ms);
    this.#logger.note(now, `clock advanced ${ms} ms to ${now.toISOString()}`);
    return now;
  }

  now(): Date {
    return this.#clock.now();
  }

  addCustomer(init: SandboxCustomerInit): SandboxCustomer {
    checkCustomer(init);
    const customer = toSandboxCustomer(init);
    this.#state.customers.set(customer.handle, customer);
    return customer;
  }

  seed(charges: readonly SandboxSeedCharge[]): SandboxSeedResult {
    const now = this.#clock.now();
    const result = seedCharges(this.#state, charges, now, this.#promptTtlMs);
    this.#logger.note(now, `sandbox seeded ${result.seeded} charges (${result.charges} held)`);
    return result;
  }

  setWebhook(given: WebhookTarget | undefined): void {
    const target = given === undefined ? undefined : readWebhookTarget(given);
    this.#webhooks.target = target;
    this.#logger.note(this.#clock.now(), `webhooks ${target === undefined ? 'off' : `-> ${target.url}`}`);
  }

  setAllowedIps(ips: readonly string[] | undefined): void {
    if (ips !== undefined) checkValue('setAllowedIps() argument', 'ips', ips, list(text, 10_000));
    this.#state.allowedIps = ips === undefined ? undefined : new Set(ips.map(normalizeIp));
  }

  charge(reference: string): SandboxCharge | undefined {
    checkValue('charge() argument', 'reference', reference, text);
    const charge = this.#state.charges.get(reference);
    return snapshot(charge && expireIfDue(charge, this.#clock.now()));
  }

  get customers(): Sandbox['customers'] {
    return snapshot([...this.#state.customers.values()]);
  }
  get charges(): Sandbox['charges'] {
    const now = this.#clock.now();
    return snapshot([...this.#state.charges.values()].map((charge) => expireIfDue(charge, now)));
  }
  get refunds(): Sandbox['refunds'] {
    return snapshot(this.#state.refunds.toArray());
  }
  get debits(): Sandbox['debits'] {
    return snapshot(this.#state.debits.toArray());
  }
  get deliveries(): Sandbox['deliveries'] {
    return snapshot(this.#state.deliveries.toArray());
  }
  get requests(): Sandbox['requests'] {
    return snapshot(this.#state.requests.toArray());
  }

  reset(): void {
    // A retry of a delivery made before the reset would hand the next test an event it never caused.
    this.#webhooks.forget();
    this.#clock.release(); // and so would a request still in its injected delay
    this.#state.clear();
    this.#clock.rewind();
    for (const customer of [...defaultSandboxCustomers, ...(this.#options.customers ?? [])])
      this.#state.customers.set(withAt(customer.handle), toSandboxCustomer(customer));
    this.setAllowedIps(this.#options.allowedIps);
  }

  async close(): Promise<void> {
    this.#clock.release();
    const webhooks = this.#webhooks.close();
    // Ends what runs now, not the sandbox: deliveries, listen() and the dispatcher work again after.
    await Promise.all([...this.#servers].map((stop) => stop()));
    await webhooks;
  }
}

/**
 * Creates a sandbox: the service in memory, with `@ada` (phone `+2348000000001`) and `@tunde`
 * ready to charge. Accepts any `sk_test_` key. Throws a `ValidationError` naming every bad option.
 *
 * @example
 * ```ts
 * import { createSandbox } from '@wallet/node/testing';
 * import { Wallet } from '@wallet/node';
 *
 * const sandbox = createSandbox({ webhookUrl: 'http://127.0.0.1:3000/webhooks/wallet', webhookSecret: 'whsec_demo' });
 * const wallet = new Wallet({ apiKey: 'sk_test_123', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
 *
 * const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_1' });
 * await wallet.charges.dispatch({ reference: 'order_1', bankId: linkedBanks[0]!.bankId, authChannel: 'wallet_push' });
 * await sandbox.authorize('order_1');
 * expect(sandbox.debits).toHaveLength(1);
 * ```
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new SandboxImpl(readSandboxOptions(options));
}
