import type { Dispatcher } from 'undici';
import type * as Undici from 'undici';
import type { Sender } from './core/attempt.js';
import { resolveConfig, type ClientOptions, type Config } from './core/config.js';
import { fetchSender, type FetchFunction } from './core/fetch-sender.js';
import { proxyAgent } from './core/proxy-agent.js';
import { createTransport, type Transport } from './core/transport.js';
import { undiciSender } from './core/undici-sender.js';
import { Charges } from './resources/charges.js';
import { Refunds } from './resources/refunds.js';
import { VERSION } from './version.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
// Not a literal: bundlers for Workers and edge runtimes must not follow undici into node: builtins.
// Where it cannot load (or is a runtime's stub, as in Bun), the client sends through fetch.
const UNDICI = 'undici';

async function loadUndici(): Promise<typeof Undici | undefined> {
  if ('Bun' in globalThis) return undefined;
  try {
    const undici = (await import(/* webpackIgnore: true */ /* @vite-ignore */ UNDICI)) as typeof Undici;
    return typeof undici.Agent?.prototype?.dispatch === 'function' ? undici : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Wallet client. Create one per process and reuse it: it keeps connections alive.
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
  /** `live` for an `sk_live_` key (real money), `test` for `sk_test_`. */
  readonly mode: 'live' | 'test';
  /** The service address requests go to. */
  readonly baseUrl: string;
  // Private fields: the key is invisible to inspect, JSON.stringify, spreading and Object.keys.
  readonly #config: Config;
  readonly #transport: Transport;
  #sender: Promise<Sender> | undefined;
  #agent: Dispatcher | undefined;

  /**
   * @param options - see {@link ClientOptions}; `apiKey` and `baseUrl` fall back to
   * `WALLET_SECRET_KEY` and `WALLET_BASE_URL`.
   * @throws {@link ValidationError} listing every problem with the options; never repeats the key.
   */
  constructor(options: ClientOptions = {}) {
    this.#config = resolveConfig(options, VERSION);
    this.mode = this.#config.mode;
    this.baseUrl = `${this.#config.origin}${this.#config.basePath}`;
    this.#transport = createTransport(this.#config, () => (this.#sender ??= this.#openSender()));
    const { scrub } = this.#config;
    this.charges = new Charges(this.#transport.request, (text) => scrub.text(text));
    this.refunds = new Refunds(this.#transport.request);
  }

  // Chosen on the first call: the merchant's fetch or dispatcher, else undici's Agent (loaded
  // now, not at import), else the runtime's fetch where undici cannot load.
  async #openSender(): Promise<Sender> {
    const { fetch, dispatcher, timeout, maxConnections, proxy, logger } = this.#config;
    if (proxy.unused) logger.log('debug', `Proxy: ${proxy.unused}.`);
    const global = (): FetchFunction | undefined => globalThis.fetch;
    if (fetch === 'global') return fetchSender(global);
    if (fetch) return fetchSender(() => fetch);
    if (dispatcher) return undiciSender(dispatcher);
    const undici = await loadUndici();
    if (!undici) return fetchSender(global);
    // undici's own timeouts are never shorter than the client's: one deadline, the SDK's, decides.
    const limit = Math.max(timeout, 300_000);
    const options = {
      keepAliveTimeout: 30_000,
      headersTimeout: limit,
      bodyTimeout: limit,
      connections: maxConnections,
    };
    this.#agent = proxy.route
      ? proxyAgent(undici, proxy.route, options)
      : new undici.Agent({ connect: { minVersion: 'TLSv1.3' }, ...options });
    return undiciSender(this.#agent);
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

  /** What `JSON.stringify` shows: mode and address, never the key. */
  toJSON(): Pick<Wallet, 'mode' | 'baseUrl'> {
    return { mode: this.mode, baseUrl: this.baseUrl };
  }
}

// What util.inspect and console.log show: mode and address, never the key. Set on the prototype
// rather than declared, so the public type does not carry a Node-only symbol.
Object.defineProperty(Wallet.prototype, INSPECT, {
  value(this: Wallet): string {
    return `Wallet { mode: '${this.mode}', baseUrl: '${this.baseUrl}' }`;
  },
});
