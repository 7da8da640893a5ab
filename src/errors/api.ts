/** Errors the service answered with: one class per common HTTP status under `ApiError`. */
import { WalletError, type WalletErrorName } from './base.js';

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
