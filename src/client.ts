import type { Dispatcher, OwnDispatcher } from './platform/types.js';
import type { ClientOptions, Config } from './core/config.js';
import {
  MAX_TIMER_MS,
  checkHeaders,
  checkOptions,
  readOptions,
  keyProblem,
  maxRetriesProblem,
  mergeHeaders,
  ofType,
  timeoutProblem,
  wholeNumber,
  userAgentOf,
  type OptionRule,
} from './core/options.js';
import { snapshot } from './core/check.js';
import { createScrubber } from './core/scrub.js';
import { createLogger } from './core/trace.js';
import { MAX_RETRY_AFTER_MS } from './core/retry.js';
import { fetchSender, undiciSender } from './core/send.js';
import type { FetchFunction, Sender } from './core/types.js';
import { createTransport, type Transport } from './core/transport.js';
import { ValidationError, WalletError, type ValidationIssue } from './errors/base.js';
import { isQuoted } from './internal/values.js';
import { platform } from './platform/index.js';
import { PROXY_UNUSABLE, proxyProblem, settleProxy } from './platform/proxy.js';
import { Charges, Refunds } from './resources/charges.js';

/** The SDK's version, sent in the `User-Agent`. A test keeps it equal to package.json's. */
export const VERSION = '0.4.0';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Wallet client. Create one per process and reuse it: it keeps connections alive. Without
 * `WALLET_SECRET_KEY` or `WALLET_BASE_URL` (a `next build` in CI) it still constructs, and each call
 * rejects with a `ValidationError` naming the variable, nothing sent; malformed options throw at once.
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

  // On the first call: the merchant's fetch or dispatcher, else the platform's Agent, else fetch.
  async #openSender(): Promise<Sender> {
    const { fetch, dispatcher, timeout, maxConnections, proxy, logger } = this.#config;
    if (proxy.unused) logger.log('debug', `Proxy: ${proxy.unused}.`);
    const global = (): FetchFunction | undefined => globalThis.fetch;
    if (fetch) return fetchSender(fetch === 'global' ? global : () => fetch);
    if (dispatcher) return undiciSender(dispatcher);
    if (!platform.createAgent) return fetchSender(global);
    // undici's own timeouts are never shorter than the client's: one deadline, the SDK's, decides.
    const limit = Math.max(timeout, 300_000);
    try {
      this.#agent = await platform.createAgent({
        connect: { minVersion: 'TLSv1.3' },
        keepAliveTimeout: 30_000,
        headersTimeout: limit,
        bodyTimeout: limit,
        connections: maxConnections,
        proxy: proxy.route,
      });
    } catch (cause) {
      // undici's file missing (a bundle or a trimmed deploy left it out): the runtime's fetch, as where
      // undici cannot load at all. Never past a proxy the merchant set, and never for another failure
      // (a broken build): fetch is a weaker way (TLS 1.2, no connection limit). Each call says why.
      const code = (cause as { code?: unknown } | null)?.code;
      if (proxy.route || (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND')) throw cause;
      logger.log('warn', `undici could not load (${code}): sending through the runtime's fetch instead.`);
      return fetchSender(global);
    }
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

  // What util.inspect shows; on the prototype, so the public type carries no Node-only symbol.
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

/** What an unset setting is filled with until a call refuses: never sent anywhere. */
const UNSET_ORIGIN = 'https://wallet-base-url-unset.invalid';
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
// A host (localhost, a dotted name or address, [::1]) with an optional port and path, and no scheme.
const SCHEMELESS = /^(localhost|\[::1\]|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d{1,5})?(?:\/[\w./-]*)?$/i;

// `name` is where the value came from: the `baseUrl` option or the `WALLET_BASE_URL` variable.
function parseBaseUrl(value: unknown, name: string, issues: ValidationIssue[]): URL | undefined {
  const fail = (message: string): undefined => void issues.push({ path: name, message });
  if (typeof value !== 'string')
    return fail(`must be a string, got ${value === null ? 'null' : typeof value}`);
  // An env file's quotes, or a host without its scheme ('localhost:4010' parses, as scheme localhost:).
  if (isQuoted(value)) return fail(`is wrapped in quotes: remove them where ${name} is set`);
  const host = SCHEMELESS.exec(value)?.[1];
  if (host !== undefined) {
    return fail(`has no scheme: use ${LOOPBACK.test(host) ? 'http' : 'https'}://${value}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('is not a valid absolute URL');
  }
  if (url.username || url.password) return fail('must not contain credentials');
  if (url.search || url.hash) return fail('must not have a query or fragment');
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    return fail('must use https: (plain http: is allowed only for localhost, 127.0.0.0/8 and [::1])');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('must be an https: URL');
  // Every path the SDK sends starts with /v1: a base URL ending in it would call /v1/v1/….
  if (/\/v1\/*$/i.test(url.pathname)) {
    const fixed = `${url.origin}${url.pathname.replace(/\/v1\/*$/i, '')}`;
    return fail(`ends in /v1: drop /v1 (use ${fixed}); the SDK adds it to every path`);
  }
  return url;
}

const none = (): undefined => undefined;
const RULES: Readonly<Record<string, OptionRule>> = {
  // Checked in resolveConfig: with their env fallback, with the User-Agent, by createLogger.
  apiKey: none,
  baseUrl: none,
  appInfo: none,
  logger: none,
  logLevel: none,
  timeout: timeoutProblem,
  maxRetries: maxRetriesProblem,
  totalTimeout: timeoutProblem,
  maxRetryAfter: wholeNumber(0, MAX_TIMER_MS),
  dispatcher: (v) =>
    typeof (v as Partial<Dispatcher> | null)?.dispatch === 'function'
      ? undefined
      : 'must be an undici Dispatcher',
  fetch: ofType('function'),
  proxy: proxyProblem,
  maxConnections: wholeNumber(1, 10_000),
  defaultHeaders: checkHeaders,
};

/** Settles the options and env fallbacks into a {@link Config}, or throws one `ValidationError` of all. */
export function resolveConfig(given: ClientOptions, version: string): Config {
  // One read into a plain copy: a revoked Proxy or a throwing trap is a ValidationError, not a TypeError.
  const taken = snapshot(given);
  if (!taken.ok) throw new ValidationError('Wallet options', taken.issues);
  const read = taken.value;
  if (typeof read !== 'object' || read === null || Array.isArray(read)) {
    throw new ValidationError('Wallet options', [{ path: '', message: 'must be an object' }]);
  }
  // A config class's getters too: checked, and then the very values that run.
  const options = readOptions(read, RULES, 'Wallet options') as ClientOptions;
  const issues = checkOptions(options, RULES, '', 'an option of Wallet');
  // A refused option is not read again below: its issue already says why, and construction throws.
  const refused = new Set(issues.map((issue) => issue.path.split('.')[0]));
  for (const name of refused) delete (options as Record<string, unknown>)[name!];
  const vars = platform.env();
  const unset: ValidationIssue[] = [];
  // Only an absent option falls back to the env; a missing value is the first call's to report.
  const setting = (option: 'apiKey' | 'baseUrl', variable: string, what: string, empty: string) => {
    const fromEnv = options[option] === undefined;
    const value = fromEnv ? vars[variable] : options[option];
    if (value !== undefined && value !== '') return { value, name: fromEnv ? variable : option };
    if (fromEnv) {
      const hint = platform.unsetHint?.(variable, option);
      const instead = `set the environment variable to ${what}, or pass ${option} to new Wallet()`;
      unset.push({ path: variable, message: hint ? `is not set, and ${hint}` : `is not set; ${instead}` });
    } else issues.push({ path: option, message: `is empty: ${empty}` });
    return undefined;
  };
  const keyWords = 'your sk_live_… or sk_test_… key';
  const key = setting('apiKey', 'WALLET_SECRET_KEY', keyWords, `pass ${keyWords}`);
  const apiKey = key?.value;
  const keyIssue = key && keyProblem(key.value, key.name);
  if (keyIssue) issues.push({ path: key.name, message: keyIssue });
  const address = setting(
    'baseUrl',
    'WALLET_BASE_URL',
    "the service's address",
    'pass the service address (the SDK has no built-in host)',
  );
  const url = address && parseBaseUrl(address.value, address.name, issues);
  const userAgent = userAgentOf(version, options.appInfo, issues);
  const wantsFetch = vars.WALLET_TRANSPORT === 'fetch' && options.dispatcher === undefined;
  const own = options.dispatcher
    ? 'the dispatcher option'
    : options.fetch
      ? 'the fetch option'
      : wantsFetch
        ? 'WALLET_TRANSPORT=fetch'
        : undefined;
  const proxy = settleProxy(options.proxy, vars, url, own);
  if (proxy.problem) issues.push(proxy.problem);
  // Bun, Deno and Fetch runtimes send through their own fetch, which cannot take this URL: never past it.
  const optionRoute = options.proxy !== undefined && options.proxy !== 'env' && proxy.route !== undefined;
  if (optionRoute && !platform.createAgent) issues.push({ path: 'proxy', message: PROXY_UNUSABLE });
  // A key of the wrong shape is never used, but it is scrubbed all the same; so are proxy credentials.
  const scrub = createScrubber(typeof apiKey === 'string' ? apiKey : '', proxy.secrets);
  const levelFromEnv = options.logLevel === undefined;
  const level = levelFromEnv ? vars.WALLET_LOG : options.logLevel;
  const logger = createLogger(options.logger, level, issues, scrub, levelFromEnv ? 'WALLET_LOG' : 'logLevel');
  if (issues.length > 0) throw new ValidationError('Wallet options', scrub.issues(issues));
  return {
    apiKey: apiKey ?? '',
    mode: apiKey?.startsWith('sk_live_') ? 'live' : 'test',
    origin: url?.origin ?? UNSET_ORIGIN,
    basePath: url?.pathname.replace(/\/+$/, '') ?? '',
    timeout: options.timeout ?? 30_000,
    maxRetries: options.maxRetries ?? 2,
    totalTimeout: options.totalTimeout ?? 60_000,
    maxRetryAfter: options.maxRetryAfter ?? MAX_RETRY_AFTER_MS,
    dispatcher: options.dispatcher,
    fetch: options.fetch ?? (wantsFetch ? 'global' : undefined),
    maxConnections: options.maxConnections ?? 64,
    headers: mergeHeaders({ accept: 'application/json', 'user-agent': userAgent }, options.defaultHeaders, {
      authorization: `Bearer ${apiKey ?? ''}`,
    }),
    logger,
    scrub,
    proxy,
    unset,
  };
}
