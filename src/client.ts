import type { Dispatcher } from 'undici';
import { resolveConfig, type ClientOptions, type Config } from './core/config.js';
import { createTransport } from './core/transport.js';
import { WalletError } from './errors.js';
import { Charges } from './resources/charges.js';
import { Refunds } from './resources/refunds.js';
import { VERSION } from './version.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

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
  #agent: Promise<Dispatcher> | undefined;
  #closed = false;

  /**
   * @param options - see {@link ClientOptions}; `apiKey` and `baseUrl` fall back to
   * `WALLET_SECRET_KEY` and `WALLET_BASE_URL`.
   * @throws {@link ValidationError} listing every problem with the options; never repeats the key.
   */
  constructor(options: ClientOptions = {}) {
    this.#config = resolveConfig(options, VERSION);
    this.mode = this.#config.mode;
    this.baseUrl = `${this.#config.origin}${this.#config.basePath}`;
    const request = createTransport(this.#config, () => this.#dispatcher());
    this.charges = new Charges(request);
    this.refunds = new Refunds(request);
  }

  #dispatcher(): Promise<Dispatcher> {
    if (this.#closed) {
      return Promise.reject(
        new WalletError('This Wallet client is closed; create a new one.', 'client_closed'),
      );
    }
    if (this.#config.dispatcher) return Promise.resolve(this.#config.dispatcher);
    // undici loads on the first request, not at import: a process that only verifies webhooks never pays for it.
    this.#agent ??= import('undici').then(
      ({ Agent }) => new Agent({ connect: { minVersion: 'TLSv1.3' }, keepAliveTimeout: 30_000 }),
    );
    return this.#agent;
  }

  /**
   * Waits for calls under way, then releases the client's own connections. A `dispatcher` you
   * passed in is yours and stays open. Calls after `close()` fail with code `client_closed`.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const agent = this.#agent;
    this.#agent = undefined;
    if (agent) await (await agent).close();
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
