import type { OwnDispatcher } from './platform/types.js';
import type { Sender } from './core/attempt.js';
import { resolveConfig, type ClientOptions, type Config } from './core/config.js';
import { fetchSender, undiciSender, type FetchFunction } from './core/senders.js';
import { createTransport, type Transport } from './core/transport.js';
import { WalletError } from './errors/base.js';
import { ValidationError } from './errors/base.js';
import { platform } from './platform/index.js';
import { Charges, Refunds } from './resources/charges.js';
import { VERSION } from './version.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Wallet client. Create one per process and reuse it: it keeps connections alive.
 *
 * Construction never fails for want of configuration the environment did not give: at module level
 * in a build step without `WALLET_SECRET_KEY` or `WALLET_BASE_URL` (a `next build` in CI), it
 * constructs, and each call rejects with a `ValidationError` naming the variable, before anything
 * is sent. Options given but malformed throw at once.
 *
 * @example
 * ```ts
 * import { Wallet } from '@wallet/node';
 *
 * const wallet = new Wallet(); // reads WALLET_SECRET_KEY and WALLET_BASE_URL, or pass { apiKey, baseUrl }
 * const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_1042' });
 * await wallet.charges.dispatch({ reference: 'order_1042', bankId: linkedBanks[0]!.bankId, authChannel: 'wallet_push' });
 * ```
 */
export class Wallet {
  /** Resolve a customer, dispatch the prompt, verify the outcome. */
  readonly charges: Charges;
  /** Refund successful payments. */
  readonly refunds: Refunds;
  // Private fields: the key is invisible to inspect, JSON.stringify, spreading and Object.keys.
  readonly #config: Config;
  readonly #transport: Transport;
  #sender: Promise<Sender> | undefined;
  #agent: OwnDispatcher | undefined;

  /**
   * @param options - see {@link ClientOptions}; `apiKey` and `baseUrl` fall back to
   * `WALLET_SECRET_KEY` and `WALLET_BASE_URL`.
   * @throws {@link ValidationError} listing every problem with the options given; never repeats the key.
   * @throws {@link WalletError} in a browser build: a secret key must never reach a browser.
   */
  constructor(options: ClientOptions = {}) {
    if (platform.refusal) throw new WalletError(platform.refusal, 'browser_refused');
    this.#config = resolveConfig(options, VERSION);
    this.#transport = createTransport(this.#config, () => (this.#sender ??= this.#openSender()));
    const { scrub } = this.#config;
    this.charges = new Charges(this.#transport.request, (text) => scrub.text(text));
    this.refunds = new Refunds(this.#transport.request);
  }

  /**
   * `live` for an `sk_live_` key (real money), `test` for `sk_test_`.
   * @throws {@link ValidationError} naming `WALLET_SECRET_KEY` when no key was given or set.
   */
  get mode(): 'live' | 'test' {
    this.#settled('WALLET_SECRET_KEY');
    return this.#config.mode;
  }

  /**
   * The service address requests go to.
   * @throws {@link ValidationError} naming `WALLET_BASE_URL` when no address was given or set.
   */
  get baseUrl(): string {
    this.#settled('WALLET_BASE_URL');
    return `${this.#config.origin}${this.#config.basePath}`;
  }

  #settled(variable: string): void {
    const issue = this.#config.unset.find((i) => i.path === variable);
    if (issue) throw new ValidationError('Wallet configuration', [issue]);
  }

  // Chosen on the first call: the merchant's fetch or dispatcher, else the platform's own Agent
  // (undici's, on Node, loaded now rather than at import), else the runtime's fetch.
  async #openSender(): Promise<Sender> {
    const { fetch, dispatcher, timeout, maxConnections, proxy, logger } = this.#config;
    if (proxy.unused) logger.log('debug', `Proxy: ${proxy.unused}.`);
    const global = (): FetchFunction | undefined => globalThis.fetch;
    if (fetch === 'global') return fetchSender(global);
    if (fetch) return fetchSender(() => fetch);
    if (dispatcher) return undiciSender(dispatcher);
    if (!platform.createAgent) return fetchSender(global);
    // undici's own timeouts are never shorter than the client's: one deadline, the SDK's, decides.
    const limit = Math.max(timeout, 300_000);
    const options = {
      keepAliveTimeout: 30_000,
      headersTimeout: limit,
      bodyTimeout: limit,
      connections: maxConnections,
    };
    this.#agent = await platform.createAgent({
      connect: { minVersion: 'TLSv1.3' },
      ...options,
      proxy: proxy.route,
    });
    return undiciSender(this.#agent, platform.realSetImmediate);
  }

  /**
   * Refuses new calls (they fail with `ClientClosedError`, nothing sent), lets calls under way
   * finish, retries and waits between them included, then releases the client's own connections.
   * A `dispatcher` you passed in is yours and stays open.
   */
  async close(): Promise<void> {
    await this.#transport.close();
    await this.#sender?.catch(() => undefined);
    const agent = this.#agent;
    this.#agent = undefined;
    await agent?.close();
  }

  /** What `JSON.stringify` shows: mode and address, never the key (nothing while unconfigured). */
  toJSON(): Partial<Pick<Wallet, 'mode' | 'baseUrl'>> {
    return this.#config.unset.length > 0 ? {} : { mode: this.mode, baseUrl: this.baseUrl };
  }

  // What util.inspect and console.log show: mode and address, never the key. Set on the prototype
  // rather than declared, so the public type does not carry a Node-only symbol.
  static {
    Object.defineProperty(Wallet.prototype, INSPECT, {
      value(this: Wallet): string {
        const unset = this.#config.unset.map((i) => i.path);
        return unset.length > 0
          ? `Wallet { unset: ${unset.join(', ')} }`
          : `Wallet { mode: '${this.mode}', baseUrl: '${this.baseUrl}' }`;
      },
    });
  }
}
