import type { Dispatcher } from '../platform/types.js';
import { ValidationError, type ValidationIssue } from '../errors/base.js';
import type { FetchFunction } from './senders.js';
import { checkHeaders, userAgentOf, type AppInfo } from './headers.js';
import { platform } from '../platform/index.js';
import { createLogger, type Logger, type LogLevel, type LogSink } from './trace.js';
import { snapshot } from './check.js';
import { MAX_TIMER_MS, checkOptions, keyProblem, ofType, wholeNumber, type OptionRule } from './options.js';
import { proxyProblem, settleProxy, type ProxyOption, type ProxySettings } from '../platform/proxy.js';
import { createScrubber, type Scrubber } from './scrub.js';
import { MAX_RETRY_AFTER_MS } from './retry.js';

export type { AppInfo } from './headers.js';

/** Options of `new Wallet(options)`. @expand */
export interface ClientOptions {
  /**
   * Your secret key, `sk_live_…` (real money) or `sk_test_…` (simulated).
   * @default process.env.WALLET_SECRET_KEY
   */
  apiKey?: string | undefined;
  /**
   * The service's address. There is no built-in host: pass it or set the env variable.
   * `https:` only, except loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`) for local tests.
   * @default process.env.WALLET_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * Milliseconds allowed for one attempt, from connecting to the last byte of the body.
   * @default 30000
   */
  timeout?: number | undefined;
  /**
   * Retries after a connection failure, a timeout, 408, 429 or 5xx. 0 disables them.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * Milliseconds for all attempts of one call together, backoff and `Retry-After` waits included:
   * a web request waiting on a payment call is answered within it.
   * @default 60000
   */
  totalTimeout?: number | undefined;
  /**
   * The longest `Retry-After`, in milliseconds, the SDK waits out before retrying; a longer one (or
   * one past `totalTimeout`) ends the call at once with `RateLimitError` and its `retryAfter`.
   * @default 20000
   */
  maxRetryAfter?: number | undefined;
  /**
   * The undici `Dispatcher` requests go through: a proxy, a mock, a custom pool.
   * @default an undici `Agent` owned by the client: keep-alive, TLS 1.3 minimum
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * A proxy for the client's own connections: its URL (`http://user:password@proxy.internal:3128`;
   * an HTTP proxy for an `http:` service, a CONNECT tunnel for `https:`), or `'env'` to read
   * `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (either case; `*` and domain suffixes in `NO_PROXY`)
   * the way Node reads them. Its credentials are secrets like the key: scrubbed from every error,
   * log line and inspect. Not used with your own `dispatcher` or `fetch`.
   * @default undefined, or 'env' when NODE_USE_ENV_PROXY=1
   */
  proxy?: ProxyOption | undefined;
  /**
   * A Fetch-compatible function to send through instead of undici, with every rule of the client
   * (timeouts, retries, idempotency, body cap). With env `WALLET_TRANSPORT=fetch`, a client built
   * without `dispatcher` or `fetch` sends through `globalThis.fetch` as it is at call time, so MSW's
   * `setupServer` sees its requests.
   * @default none on Node (undici is used); the runtime's `fetch` where undici cannot load
   */
  fetch?: FetchFunction | undefined;
  /**
   * Connections the client's own Agent keeps open per origin.
   * @default 64
   */
  maxConnections?: number | undefined;
  /**
   * Headers sent with every request. `Authorization`, `X-Idempotency-Key` and the body headers
   * are the SDK's own and cannot be set here.
   * @default {}
   */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Your application, added to the `User-Agent`.
   * @default undefined
   */
  appInfo?: AppInfo | undefined;
  /**
   * Where log lines go: any object with console's `debug`, `info`, `warn` and `error`.
   * @default console
   */
  logger?: LogSink | undefined;
  /**
   * The least severe level logged. `debug` shows each attempt: method, path, status, timing.
   * @default process.env.WALLET_LOG, else 'warn'
   */
  logLevel?: LogLevel | undefined;
}

/** The client's settled configuration. */
export interface Config {
  readonly apiKey: string;
  readonly mode: 'live' | 'test';
  /** Origin of the service, for example `https://api.example.com`. */
  readonly origin: string;
  /** Path prefix before `/v1`, without a trailing slash; usually empty. */
  readonly basePath: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly totalTimeout: number;
  readonly maxRetryAfter: number;
  readonly dispatcher: Dispatcher | undefined;
  /** The fetch to send through, or `'global'` for `globalThis.fetch` read at call time. */
  readonly fetch: FetchFunction | 'global' | undefined;
  readonly maxConnections: number;
  /** `accept` and `user-agent`: the SDK's defaults, which `defaultHeaders` may replace. */
  readonly baseHeaders: Readonly<Record<string, string>>;
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly logger: Logger;
  readonly scrub: Scrubber;
  /** The proxy for the client's own connections, if any, and what the debug log says about it. */
  readonly proxy: ProxySettings;
  /**
   * Settings the environment did not give (`WALLET_SECRET_KEY`, `WALLET_BASE_URL` unset): the
   * client still constructs (a build step has no secrets), and every call rejects with these
   * before anything is sent. Empty once configured.
   */
  readonly unset: readonly ValidationIssue[];
}

/** What an unset setting is filled with until a call refuses: never sent anywhere. */
const UNSET_ORIGIN = 'https://wallet-base-url-unset.invalid';
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Checks a timeout: a positive number of milliseconds that a timer can hold. */
export function timeoutProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !(value > 0) || value > MAX_TIMER_MS) {
    return `must be a positive number of milliseconds up to ${MAX_TIMER_MS}`;
  }
  return undefined;
}

/** Checks a retry count: a whole number from 0 to 10. */
export const maxRetriesProblem: OptionRule = wholeNumber(0, 10);

// `name` is where the value came from: the `baseUrl` option or the `WALLET_BASE_URL` variable.
function parseBaseUrl(value: unknown, name: string, issues: ValidationIssue[]): URL | undefined {
  const fail = (message: string): undefined => void issues.push({ path: name, message });
  if (typeof value !== 'string')
    return fail(`must be a string, got ${value === null ? 'null' : typeof value}`);
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
  // Every path the SDK sends starts with /v1, so a base URL ending in it would call /v1/v1/….
  if (/\/v1\/*$/i.test(url.pathname)) {
    const fixed = `${url.origin}${url.pathname.replace(/\/v1\/*$/i, '')}`;
    return fail(`ends in /v1: drop /v1 (use ${fixed}); the SDK adds it to every path`);
  }
  return url;
}

/** The issue of a setting that neither the options nor the environment gave. */
function unsetIssue(variable: string, option: string, what: string): ValidationIssue {
  const hint = platform.unsetHint?.(variable, option);
  if (hint) return { path: variable, message: `is not set, and ${hint}` };
  return {
    path: variable,
    message: `is not set; set the environment variable to ${what}, or pass ${option} to new Wallet()`,
  };
}

const RULES: Readonly<Record<string, OptionRule>> = {
  apiKey: () => undefined, // checked with its env fallback
  baseUrl: () => undefined,
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
  defaultHeaders: (v, path) => checkHeaders(v, path),
  appInfo: () => undefined, // checked while building the User-Agent
  logger: () => undefined, // checked by createLogger
  logLevel: () => undefined,
};

/**
 * Settles the client's options and env fallbacks into a {@link Config}, or throws a
 * `ValidationError` listing every problem at once.
 */
export function resolveConfig(given: ClientOptions, version: string): Config {
  // One read into a plain copy: a revoked Proxy or a throwing trap is a ValidationError, not a TypeError.
  const taken = snapshot(given);
  if (!taken.ok) throw new ValidationError('Wallet options', taken.issues);
  const options = taken.value as ClientOptions;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ValidationError('Wallet options', [{ path: '', message: 'must be an object' }]);
  }
  const issues = checkOptions(options, RULES, '', 'an option of Wallet');
  const vars = platform.env();
  const unset: ValidationIssue[] = [];
  // Only an absent option falls back to the env: an explicit null is a mistake to report. A value
  // the env does not give is left for the first call to report; one given malformed fails now.
  const keyFromEnv = options.apiKey === undefined;
  const apiKey = keyFromEnv ? vars.WALLET_SECRET_KEY : options.apiKey;
  const keyName = keyFromEnv ? 'WALLET_SECRET_KEY' : 'apiKey';
  if (apiKey === undefined || apiKey === '') {
    if (keyFromEnv) unset.push(unsetIssue('WALLET_SECRET_KEY', 'apiKey', 'your sk_live_… or sk_test_… key'));
    else issues.push({ path: 'apiKey', message: 'is empty: pass your sk_live_… or sk_test_… key' });
  } else {
    const keyIssue = keyProblem(apiKey, keyName);
    if (keyIssue) issues.push({ path: keyName, message: keyIssue });
  }
  const urlFromEnv = options.baseUrl === undefined;
  const rawUrl = urlFromEnv ? vars.WALLET_BASE_URL : options.baseUrl;
  let url: URL | undefined;
  if (rawUrl === undefined || rawUrl === '') {
    if (urlFromEnv) unset.push(unsetIssue('WALLET_BASE_URL', 'baseUrl', "the service's address"));
    else
      issues.push({
        path: 'baseUrl',
        message: 'is empty: pass the service address (the SDK has no built-in host)',
      });
  } else url = parseBaseUrl(rawUrl, urlFromEnv ? 'WALLET_BASE_URL' : 'baseUrl', issues);
  const { user: userAgent, issues: uaIssues } = userAgentOf(version, options.appInfo);
  issues.push(...uaIssues);
  const wantsFetch = vars.WALLET_TRANSPORT === 'fetch' && options.dispatcher === undefined;
  const own = options.dispatcher
    ? 'the dispatcher option'
    : options.fetch
      ? 'the fetch option'
      : wantsFetch
        ? 'WALLET_TRANSPORT=fetch'
        : undefined;
  const proxyGiven = issues.some((i) => i.path === 'proxy') ? undefined : options.proxy;
  const proxy = settleProxy(proxyGiven, vars, url, own);
  if (proxy.problem) issues.push(proxy.problem);
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
    baseHeaders: { accept: 'application/json', 'user-agent': userAgent },
    defaultHeaders: options.defaultHeaders ?? {},
    logger,
    scrub,
    proxy,
    unset,
  };
}
