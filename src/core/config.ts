import type { Dispatcher } from '../platform/types.js';
import type { ProxySettings } from '../platform/proxy.js';
import type { ValidationIssue } from '../errors/base.js';
import type { FetchFunction } from './types.js';
import type { Logger, LogLevel, LogSink } from './trace.js';
import type { Scrubber } from './scrub.js';

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
   * Milliseconds for all attempts of one call together, waits included.
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
   * A proxy for the client's own connections (plain HTTP to an `http:` service, a CONNECT tunnel to
   * `https:`): its URL, `http://user:password@proxy.internal:3128`, or `'env'` to read `HTTPS_PROXY`,
   * `HTTP_PROXY` and `NO_PROXY` as Node does. Credentials are scrubbed like the key. Unused with your
   * own `dispatcher` or `fetch`. A URL is refused on Bun, Deno and Fetch runtimes, whose `fetch` cannot
   * take one (Bun's and Deno's read the proxy variables themselves).
   * @default undefined, or 'env' when NODE_USE_ENV_PROXY=1
   */
  proxy?: string | undefined;
  /**
   * A Fetch-compatible function to send through instead of undici, under every rule of the client.
   * With env `WALLET_TRANSPORT=fetch` and neither option, the client sends through `globalThis.fetch`
   * as it is at call time, so MSW's `setupServer` sees its requests. A wrapper passes `init` on whole
   * (its `redirect: 'manual'`) and returns fetch's own `Response`: a redirect it followed is then
   * refused as of unknown outcome, but one hidden in a rebuilt `Response` cannot be seen.
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

/** Identifies your integration in the `User-Agent`, so the service can help you when it goes wrong. */
export interface AppInfo {
  /** Your application's name, for example `ShopRite Checkout` or `Ìyá Àkàrà`; any Unicode is fine. */
  name: string;
  /**
   * Its version.
   * @default undefined
   */
  version?: string;
  /**
   * A URL about it.
   * @default undefined
   */
  url?: string;
}

/** The client's settled configuration. */
export interface Config {
  readonly apiKey: string;
  readonly mode: 'live' | 'test';
  /** For example `https://api.example.com`. */
  readonly origin: string;
  /** The path prefix before `/v1`, without a trailing slash; usually empty. */
  readonly basePath: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly totalTimeout: number;
  readonly maxRetryAfter: number;
  readonly dispatcher: Dispatcher | undefined;
  /** The fetch to send through, or `'global'` for `globalThis.fetch` read at call time. */
  readonly fetch: FetchFunction | 'global' | undefined;
  readonly maxConnections: number;
  /** Every call's headers, lowercase: the SDK's defaults, `defaultHeaders`, then `authorization`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly logger: Logger;
  readonly scrub: Scrubber;
  readonly proxy: ProxySettings;
  /** Settings the environment did not give: the client constructs, and every call rejects with these. */
  readonly unset: readonly ValidationIssue[];
}

/** Per-call options, the last argument of every API method. Each overrides the client's for one call. */
export interface RequestOptions {
  /**
   * The `X-Idempotency-Key` of a POST. Reuse it when you retry a call yourself (after a crash or
   * an error whose `outcomeUnknown` is true) and the service answers with the original result
   * instead of acting twice.
   * @default a new UUID per call, the same across the SDK's own retries
   */
  idempotencyKey?: string | undefined;
  /**
   * Milliseconds allowed for one attempt, from connecting to the last byte of the body.
   * @default the client's `timeout` (30000)
   */
  timeout?: number | undefined;
  /**
   * Milliseconds for all attempts of this call together, waits included; each attempt is cut to
   * what is left.
   * @default the client's `totalTimeout` (60000)
   */
  totalTimeout?: number | undefined;
  /**
   * Retries after a connection failure, a timeout, 408, 429 or 5xx.
   * @default the client's `maxRetries` (2)
   */
  maxRetries?: number | undefined;
  /**
   * Cancels the call, including a wait between retries. Never retried.
   * @default undefined
   */
  signal?: AbortSignal | undefined;
  /**
   * Extra headers for this call; each replaces the client's default of the same name (any case).
   * @default {}
   */
  headers?: Record<string, string> | undefined;
}
