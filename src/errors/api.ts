/** Errors the service answered with: one class per common HTTP status under `ApiError`. */
import { WalletError, named, type CallInfo, type WalletErrorCode } from './base.js';

/** A successful response's or an error's response headers, as a plain object of lowercase names. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/** What an {@link ApiError} is built from. */
export interface ApiErrorInit extends Partial<CallInfo> {
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
 * `"error"`. Subclasses name the common statuses. `outcomeUnknown` is true when an earlier
 * attempt of the same call may have acted (a dropped connection, then this answer).
 */
export class ApiError extends WalletError {
  /** HTTP status code (200 for an error envelope inside a 2xx). */
  readonly status: number;
  /** The parsed JSON body, or a text excerpt of an HTML or other non-JSON body. */
  readonly body: unknown;
  /** Response headers, lowercase names. */
  readonly headers: ResponseHeaders;
  /** Method and path of the failed call, for example `POST /v1/refunds`. */
  declare readonly endpoint: string;

  /** @param init - see {@link ApiErrorInit}. @param code - defaults to the class's code. */
  constructor(init: ApiErrorInit, code?: WalletErrorCode) {
    super(init.message, code, { call: { attempts: 1, ...init } });
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
  }
}

/** HTTP 400: the service refused the request as malformed. */
export class BadRequestError extends ApiError {}

/** HTTP 401: the secret key is missing, wrong or revoked. */
export class AuthenticationError extends ApiError {}

/** HTTP 403: the key is locked to an IP allow list that does not include this server. */
export class PermissionDeniedError extends ApiError {}

/** HTTP 404: an unknown handle or reference. */
export class NotFoundError extends ApiError {}

/** HTTP 409: a duplicate reference, or a charge already paid. */
export class ConflictError extends ApiError {}

/** HTTP 422: well-formed but refused, for example a refund larger than what is left. */
export class UnprocessableEntityError extends ApiError {}

/** HTTP 429: too many requests; `retryAfter` says how long the service asked to wait. */
export class RateLimitError extends ApiError {
  /** Seconds the service asked to wait (from a valid `Retry-After`), when it said. */
  readonly retryAfter: number | undefined;
  /** @param init - see {@link ApiErrorInit}. @param retryAfter - seconds, from `Retry-After`. */
  constructor(init: ApiErrorInit, retryAfter?: number) {
    super(init);
    this.retryAfter = retryAfter;
  }
}

/** HTTP 5xx: the service failed, after `maxRetries` retries. It may have acted: see `outcomeUnknown`. */
export class InternalServerError extends ApiError {}

/** The error class for an HTTP status: one table, read by the transport. */
export const API_ERROR_BY_STATUS: ReadonlyMap<number, new (init: ApiErrorInit) => ApiError> = new Map<
  number,
  new (init: ApiErrorInit) => ApiError
>([
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [409, ConflictError],
  [422, UnprocessableEntityError],
  [429, RateLimitError],
]);

named({
  ApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
});
