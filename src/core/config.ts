import type { Dispatcher } from 'undici';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { checkHeaders } from './headers.js';
import { createLogger, type Logger, type LogLevel, type LogSink } from './logger.js';

/** Identifies your integration in the `User-Agent`, so the service can help you when it goes wrong. */
export interface AppInfo {
  /** Your application's name, for example `ShopRite Checkout`. */
  name: string;
  /** Its version. */
  version?: string;
  /** A URL about it. */
  url?: string;
}

/** Options of `new Wallet(options)`. @expand */
export interface ClientOptions {
  /**
   * Your secret key, `sk_live_…` (real money) or `sk_test_…` (simulated).
   * @default process.env.WALLET_SECRET_KEY
   */
  apiKey?: string;
  /**
   * The service's address. There is no built-in host: pass it or set the env variable.
   * `https:` only, except loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`) for local tests.
   * @default process.env.WALLET_BASE_URL
   */
  baseUrl?: string;
  /**
   * Milliseconds allowed for one attempt, from connecting to the last byte of the body.
   * @default 30000
   */
  timeout?: number;
  /**
   * Retries after a connection failure, a timeout, 408, 429 or 5xx. 0 disables them.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The undici `Dispatcher` requests go through: a proxy, a mock, a custom pool.
   * @default an undici `Agent` owned by the client: keep-alive, TLS 1.3 minimum
   */
  dispatcher?: Dispatcher;
  /**
   * Headers sent with every request. `Authorization`, `X-Idempotency-Key` and the body headers
   * are the SDK's own and cannot be set here.
   * @default {}
   */
  defaultHeaders?: Record<string, string>;
  /**
   * Your application, added to the `User-Agent`.
   * @default undefined
   */
  appInfo?: AppInfo;
  /**
   * Where log lines go: any object with console's `debug`, `info`, `warn` and `error`.
   * @default console
   */
  logger?: LogSink;
  /**
   * The least severe level logged. `debug` shows each attempt: method, path, status, timing.
   * @default process.env.WALLET_LOG, else 'warn'
   */
  logLevel?: LogLevel;
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
  readonly dispatcher: Dispatcher | undefined;
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly userAgent: string;
  readonly logger: Logger;
}

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'apiKey',
  'baseUrl',
  'timeout',
  'maxRetries',
  'dispatcher',
  'defaultHeaders',
  'appInfo',
  'logger',
  'logLevel',
]);
const KEY_PATTERN = /^sk_(live|test)_[\x21-\x7e]+$/;
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const MAX_TIMER_MS = 2_147_483_647;

/** Checks a timeout: a positive number of milliseconds that a timer can hold. */
export function timeoutProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !(value > 0) || value > MAX_TIMER_MS) {
    return `must be a positive number of milliseconds up to ${MAX_TIMER_MS}`;
  }
  return undefined;
}

/** Checks a retry count: a whole number from 0 to 10. */
export function maxRetriesProblem(value: unknown): string | undefined {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 10) {
    return 'must be a whole number from 0 to 10';
  }
  return undefined;
}

// Never echo the key: not even part of it ends up in an error, a log or a bug report.
function keyProblem(key: unknown): string | undefined {
  if (key === undefined || key === '') {
    return 'is missing: pass apiKey or set WALLET_SECRET_KEY to your sk_live_… or sk_test_… key';
  }
  if (typeof key !== 'string') return `must be a string, got ${typeof key}`;
  if (/^\s|\s$/.test(key))
    return 'has leading or trailing whitespace (check how it is loaded from your env file)';
  if (!KEY_PATTERN.test(key)) {
    return /^[pr]k_/.test(key)
      ? 'looks like a public or restricted key; the SDK needs a secret key starting with sk_live_ or sk_test_'
      : `must start with sk_live_ or sk_test_ (got ${key.length} characters that do not)`;
  }
  return undefined;
}

function parseBaseUrl(value: unknown, issues: ValidationIssue[]): URL | undefined {
  const fail = (message: string): undefined => void issues.push({ path: 'baseUrl', message });
  if (value === undefined || value === '') {
    return fail('is missing: pass baseUrl or set WALLET_BASE_URL (the SDK has no built-in host)');
  }
  if (typeof value !== 'string') return fail(`must be a string, got ${typeof value}`);
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
  return url;
}

function userAgentOf(version: string, app: AppInfo | undefined, issues: ValidationIssue[]): string {
  const base = `wallet-node/${version} node/${process.versions.node}`;
  if (app === undefined) return base;
  if (typeof app !== 'object' || app === null || typeof app.name !== 'string' || !app.name) {
    issues.push({ path: 'appInfo.name', message: 'must be a non-empty string' });
    return base;
  }
  const text = `${app.name}${app.version ? `/${app.version}` : ''}${app.url ? ` (${app.url})` : ''}`;
  if (/[\r\n]/.test(text)) issues.push({ path: 'appInfo', message: 'must not contain line breaks' });
  return `${base} ${text}`;
}

/**
 * Settles the client's options and env fallbacks into a {@link Config}, or throws a
 * `ValidationError` listing every problem at once.
 */
export function resolveConfig(options: ClientOptions, version: string): Config {
  const issues: ValidationIssue[] = [];
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError('Wallet options', [{ path: '', message: 'must be an object' }]);
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) issues.push({ path: name, message: 'is not an option of Wallet' });
  }
  const env = process.env;
  const apiKey = options.apiKey ?? env.WALLET_SECRET_KEY;
  const keyIssue = keyProblem(apiKey);
  if (keyIssue) issues.push({ path: 'apiKey', message: keyIssue });
  const url = parseBaseUrl(options.baseUrl ?? env.WALLET_BASE_URL, issues);
  const timeout = options.timeout ?? 30_000;
  const timeoutIssue = timeoutProblem(timeout);
  if (timeoutIssue) issues.push({ path: 'timeout', message: timeoutIssue });
  const maxRetries = options.maxRetries ?? 2;
  const retriesIssue = maxRetriesProblem(maxRetries);
  if (retriesIssue) issues.push({ path: 'maxRetries', message: retriesIssue });
  const dispatcher = options.dispatcher;
  if (dispatcher !== undefined && typeof (dispatcher as Partial<Dispatcher>).request !== 'function') {
    issues.push({ path: 'dispatcher', message: 'must be an undici Dispatcher' });
  }
  const defaultHeaders = options.defaultHeaders ?? {};
  issues.push(...checkHeaders(defaultHeaders, 'defaultHeaders'));
  const userAgent = userAgentOf(version, options.appInfo, issues);
  const logger = createLogger(options.logger, options.logLevel ?? env.WALLET_LOG, issues);
  if (issues.length > 0 || !url) throw new ValidationError('Wallet options', issues);
  return {
    apiKey: apiKey as string,
    mode: (apiKey as string).startsWith('sk_live_') ? 'live' : 'test',
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    timeout,
    maxRetries,
    dispatcher,
    defaultHeaders,
    userAgent,
    logger,
  };
}
