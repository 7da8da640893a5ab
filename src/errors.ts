/**
 * The SDK's error tree. Every error extends {@link WalletError} and carries a literal `name` and a
 * stable `code`. Guards and `instanceof` work by name and a global brand, not by class identity, so
 * they hold when two copies of the package are loaded (a bundled dependency, a monorepo).
 *
 * This module imports nothing: the webhooks entry loads it and must stay light.
 */

const BRAND = Symbol.for('@wallet/node.error');

/** The literal `name` of one of the SDK's error classes. */
export type WalletErrorName =
  | 'WalletError'
  | 'ApiError'
  | 'BadRequestError'
  | 'AuthenticationError'
  | 'PermissionDeniedError'
  | 'NotFoundError'
  | 'ConflictError'
  | 'UnprocessableEntityError'
  | 'RateLimitError'
  | 'InternalServerError'
  | 'ConnectionError'
  | 'ConnectionTimeoutError'
  | 'RequestAbortedError'
  | 'ValidationError'
  | 'ResponseValidationError'
  | 'WebhookVerificationError';

/** Every error name the SDK throws, mapped to its parent's name. */
const PARENT: Record<WalletErrorName, WalletErrorName | undefined> = {
  WalletError: undefined,
  ApiError: 'WalletError',
  BadRequestError: 'ApiError',
  AuthenticationError: 'ApiError',
  PermissionDeniedError: 'ApiError',
  NotFoundError: 'ApiError',
  ConflictError: 'ApiError',
  UnprocessableEntityError: 'ApiError',
  RateLimitError: 'ApiError',
  InternalServerError: 'ApiError',
  ConnectionError: 'WalletError',
  ConnectionTimeoutError: 'ConnectionError',
  RequestAbortedError: 'WalletError',
  ValidationError: 'WalletError',
  ResponseValidationError: 'WalletError',
  WebhookVerificationError: 'WalletError',
};

function isKind(value: unknown, kind: WalletErrorName): boolean {
  if (typeof value !== 'object' || value === null || !(BRAND in value)) return false;
  let name: string | undefined = (value as { name?: unknown }).name as string | undefined;
  while (name !== undefined) {
    if (name === kind) return true;
    name = PARENT[name as WalletErrorName];
  }
  return false;
}

/**
 * Base class of every error the SDK throws.
 *
 * @example
 * ```ts
 * try {
 *   await wallet.charges.verify('order_1042');
 * } catch (error) {
 *   if (isWalletError(error)) console.error(error.code, error.message);
 *   else throw error;
 * }
 * ```
 */
export class WalletError extends Error {
  /** The class's literal name; stable across versions and copies of the package. */
  override readonly name: WalletErrorName = 'WalletError';
  /** A stable, machine-readable code to branch on, for example `not_found` or `connection_timeout`. */
  readonly code: string;

  /** @param message - what went wrong, for a person. @param code - see {@link WalletError.code}. */
  constructor(message: string, code = 'wallet_error', options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** `instanceof` by name, so errors from another copy of the package still match. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isKind(value, (this as unknown as { kind: WalletErrorName }).kind);
  }

  /** The name that `instanceof` checks for; each subclass sets its own. @internal */
  static readonly kind: WalletErrorName = 'WalletError';
}

/** A successful response's or an error's response headers, as a plain object of lowercase names. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/** What an {@link ApiError} is built from. */
export interface ApiErrorInit {
  /** HTTP status code. */
  status: number;
  /** The server's message, or a description of the status when it sent none. */
  message: string;
  /** The parsed JSON body, or an excerpt of a non-JSON body. */
  body: unknown;
  /** Response headers. */
  headers: ResponseHeaders;
  /** The `X-Idempotency-Key` the request carried, for POST requests. */
  idempotencyKey: string | undefined;
  /** The method and path that were called, for example `POST /v1/refunds`. */
  endpoint: string;
}

/**
 * The service answered with an error: any non-2xx status, or a 2xx whose envelope `status` is
 * `"error"`. Subclasses name the common statuses.
 */
export class ApiError extends WalletError {
  override readonly name: WalletErrorName = 'ApiError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ApiError';
  /** HTTP status code (200 for an error envelope inside a 2xx). */
  readonly status: number;
  /** The parsed JSON body, or a text excerpt of an HTML or other non-JSON body. */
  readonly body: unknown;
  /** Response headers, lowercase names. */
  readonly headers: ResponseHeaders;
  /** The idempotency key the request carried (POST only); retry with it to stay safe. */
  readonly idempotencyKey: string | undefined;
  /** Method and path of the failed call, for example `POST /v1/refunds`. */
  readonly endpoint: string;

  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit, code = 'api_error') {
    super(init.message, code);
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
    this.idempotencyKey = init.idempotencyKey;
    this.endpoint = init.endpoint;
  }
}

/** HTTP 400: the service refused the request as malformed. */
export class BadRequestError extends ApiError {
  override readonly name: WalletErrorName = 'BadRequestError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'BadRequestError';
  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit) {
    super(init, 'bad_request');
  }
}

/** HTTP 401: the secret key is missing, wrong or revoked. */
export class AuthenticationError extends ApiError {
  override readonly name: WalletErrorName = 'AuthenticationError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'AuthenticationError';
  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit) {
    super(init, 'authentication_failed');
  }
}

/** HTTP 403: the key is locked to an IP allow list that does not include this server. */
export class PermissionDeniedError extends ApiError {
  override readonly name: WalletErrorName = 'PermissionDeniedError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'PermissionDeniedError';
  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit) {
    super(init, 'permission_denied');
  }
}

/** HTTP 404: an unknown handle or reference. */
export class NotFoundError extends ApiError {
  override readonly name: WalletErrorName = 'NotFoundError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'NotFoundError';
  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit) {
    super(init, 'not_found');
  }
}

/** HTTP 409: a duplicate reference, or a charge already paid. */
export class ConflictError extends ApiError {
  override readonly name: WalletErrorName = 'ConflictError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ConflictError';
  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit) {
    super(init, 'conflict');
  }
}

/** HTTP 422: well-formed but refused, for example a refund larger than what is left. */
export class UnprocessableEntityError extends ApiError {
  override readonly name: WalletErrorName = 'UnprocessableEntityError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'UnprocessableEntityError';
  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit) {
    super(init, 'unprocessable_entity');
  }
}

/** HTTP 429: too many requests; `retryAfter` says how long the service asked to wait. */
export class RateLimitError extends ApiError {
  override readonly name: WalletErrorName = 'RateLimitError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'RateLimitError';
  /** Seconds the service asked to wait (from `Retry-After`), when it said. */
  readonly retryAfter: number | undefined;
  /** @param init - see {@link ApiErrorInit}. @param retryAfter - seconds, from `Retry-After`. */
  constructor(init: ApiErrorInit, retryAfter?: number) {
    super(init, 'rate_limited');
    this.retryAfter = retryAfter;
  }
}

/** HTTP 5xx: the service failed. The SDK has already retried it `maxRetries` times. */
export class InternalServerError extends ApiError {
  override readonly name: WalletErrorName = 'InternalServerError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'InternalServerError';
  /** @param init - see {@link ApiErrorInit}. */
  constructor(init: ApiErrorInit) {
    super(init, 'internal_server_error');
  }
}

/** What a {@link ConnectionError} is built from. */
export interface ConnectionErrorInit {
  /** Method and path of the call, for example `POST /v1/charges/dispatch`. */
  endpoint: string;
  /** The idempotency key of a POST, which makes retrying it safe. */
  idempotencyKey: string | undefined;
  /** The underlying network error. */
  cause: unknown;
  /** How many attempts were made. */
  attempts: number;
}

function unknownOutcome(init: ConnectionErrorInit): string {
  if (init.idempotencyKey === undefined) return '';
  return (
    ` The outcome of ${init.endpoint} is unknown: the service may have acted on it.` +
    ` Retry with idempotencyKey '${init.idempotencyKey}' (it is never applied twice), or confirm with charges.verify().`
  );
}

/**
 * No response arrived: the connection failed or was reset. On a POST the outcome is unknown;
 * retry with the carried `idempotencyKey` and the service will not act twice.
 */
export class ConnectionError extends WalletError {
  override readonly name: WalletErrorName = 'ConnectionError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ConnectionError';
  /** Method and path of the call. */
  readonly endpoint: string;
  /** For a POST: the key to retry with; the service will not act on it twice. */
  readonly idempotencyKey: string | undefined;
  /** True for a POST: the service may or may not have acted on it. */
  readonly outcomeUnknown: boolean;
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  /** @param init - see {@link ConnectionErrorInit}. */
  constructor(init: ConnectionErrorInit, what = 'Connection failed', code = 'connection_error') {
    super(`${what} after ${init.attempts} attempt(s) of ${init.endpoint}.${unknownOutcome(init)}`, code, {
      cause: init.cause,
    });
    this.endpoint = init.endpoint;
    this.idempotencyKey = init.idempotencyKey;
    this.outcomeUnknown = init.idempotencyKey !== undefined;
    this.attempts = init.attempts;
  }
}

/** No complete response arrived within the per-attempt `timeout`. */
export class ConnectionTimeoutError extends ConnectionError {
  override readonly name: WalletErrorName = 'ConnectionTimeoutError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ConnectionTimeoutError';
  /** @param init - see {@link ConnectionErrorInit}. @param timeout - the per-attempt limit, ms. */
  constructor(init: ConnectionErrorInit, timeout: number) {
    super(init, `Timed out (${timeout} ms per attempt)`, 'connection_timeout');
  }
}

/** The caller's `AbortSignal` fired. Never retried. */
export class RequestAbortedError extends WalletError {
  override readonly name: WalletErrorName = 'RequestAbortedError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'RequestAbortedError';
  /** For a POST: the key to retry with, since the service may have acted before the abort. */
  readonly idempotencyKey: string | undefined;
  /** @param endpoint - method and path. @param idempotencyKey - the POST's key. */
  constructor(endpoint: string, idempotencyKey: string | undefined, cause?: unknown) {
    super(`The request ${endpoint} was aborted by its signal.`, 'request_aborted', { cause });
    this.idempotencyKey = idempotencyKey;
  }
}

/** One problem with a request parameter. */
export interface ValidationIssue {
  /** Dotted path of the field, for example `amount` or `metadata.items.0`. Empty for the whole input. */
  path: string;
  /** What is wrong with it. */
  message: string;
}

/** A parameter is wrong: of a request (then nothing was sent), of the client's options, or of a money helper. */
export class ValidationError extends WalletError {
  override readonly name: WalletErrorName = 'ValidationError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ValidationError';
  /** Every problem found, by field. */
  readonly issues: readonly ValidationIssue[];
  /**
   * @param context - what was being validated, for example `dispatch parameters`.
   * @param issues - the problems.
   * @param note - a closing sentence, for example that nothing was sent.
   */
  constructor(context: string, issues: readonly ValidationIssue[], note = '') {
    const list = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    super(`Invalid ${context}: ${list}.${note && ` ${note}`}`, 'invalid_request');
    this.issues = issues;
  }
}

/** The service answered 2xx with a body that breaks a documented field. */
export class ResponseValidationError extends WalletError {
  override readonly name: WalletErrorName = 'ResponseValidationError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ResponseValidationError';
  /** The response body as received (parsed JSON, or text). */
  readonly body: unknown;
  /** The broken fields. */
  readonly issues: readonly ValidationIssue[];
  /** HTTP status of the response. */
  readonly status: number;
  /** @param endpoint - method and path. */
  constructor(endpoint: string, status: number, body: unknown, issues: readonly ValidationIssue[]) {
    const list = issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ');
    super(`Unexpected response from ${endpoint}: ${list}`, 'invalid_response');
    this.body = body;
    this.issues = issues;
    this.status = status;
  }
}

/** Why a webhook was refused. */
export type WebhookVerificationReason =
  | 'missing_secret'
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'raw_body_required'
  | 'invalid_payload';

/** A webhook delivery could not be verified; its payload must not be trusted. */
export class WebhookVerificationError extends WalletError {
  override readonly name: WalletErrorName = 'WebhookVerificationError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'WebhookVerificationError';
  /** Why it was refused. */
  readonly reason: WebhookVerificationReason;
  /** @param reason - see {@link WebhookVerificationReason}. @param message - for a person. */
  constructor(reason: WebhookVerificationReason, message: string) {
    super(message, `webhook_${reason}`);
    this.reason = reason;
  }
}

/** True for any error thrown by this SDK, from any copy of the package. */
export function isWalletError(error: unknown): error is WalletError {
  return isKind(error, 'WalletError');
}
/** True when the service answered with an error status or an error envelope. */
export function isApiError(error: unknown): error is ApiError {
  return isKind(error, 'ApiError');
}
/** True when no response arrived (including timeouts); on a POST the outcome is unknown. */
export function isConnectionError(error: unknown): error is ConnectionError {
  return isKind(error, 'ConnectionError');
}
/** True when request parameters were refused before anything was sent. */
export function isValidationError(error: unknown): error is ValidationError {
  return isKind(error, 'ValidationError');
}
/** True when a webhook delivery failed verification. */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return isKind(error, 'WebhookVerificationError');
}
