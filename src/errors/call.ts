/**
 * The errors an API call ends in: the service's answer (`ApiError`, one class per common HTTP
 * status), no answer (`ConnectionError`), or the call's own end (aborted, closed, oversized,
 * waited out); their guards beside them.
 */
import {
  WalletError,
  isKind,
  named,
  type CallInfo,
  type WalletErrorCode,
  type WalletErrorOptions,
} from './base.js';
import type { Transaction } from '../types.js';

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

/** True when the service answered with an error status or an error envelope. */
export function isApiError(error: unknown): error is ApiError {
  return isKind(error, 'ApiError');
}

/** What a {@link ConnectionError} is built from. */
export interface ConnectionErrorInit extends Partial<CallInfo> {
  /** Method and path of the call, for example `POST /v1/charges/dispatch`. */
  endpoint: string;
  /** The idempotency key of a POST, which makes retrying it safe. */
  idempotencyKey: string | undefined;
  /** The underlying network error, scrubbed of the key. */
  cause: unknown;
  /** How many attempts were made. */
  attempts: number;
  /** The whole message, when the caller composed one (the transport names host, error code and advice). */
  message?: string;
}

/**
 * No response arrived: the connection could not be made, failed or was reset. `outcomeUnknown`
 * says whether the service may have acted (false for a DNS failure or a refused connection, where
 * nothing reached it); retrying with the carried `idempotencyKey` is always safe.
 */
export class ConnectionError extends WalletError {
  /** Method and path of the call. */
  declare readonly endpoint: string;
  /** How many attempts were made before giving up. */
  declare readonly attempts: number;

  /** @param init - see {@link ConnectionErrorInit}. @param code - defaults to the class's code. */
  constructor(init: ConnectionErrorInit, code?: WalletErrorCode) {
    const message =
      init.message ?? `Connection failed after ${init.attempts} attempt(s) of ${init.endpoint}.`;
    super(message, code, { cause: init.cause, call: init });
  }
}

/** No complete response arrived within the per-attempt `timeout`. */
export class ConnectionTimeoutError extends ConnectionError {
  /** The per-attempt limit, in milliseconds. */
  readonly timeout: number;
  /** @param init - see {@link ConnectionErrorInit}. @param timeout - the per-attempt limit, ms. */
  constructor(init: ConnectionErrorInit, timeout: number) {
    super({
      ...init,
      message:
        init.message ??
        `Timed out (${timeout} ms per attempt) after ${init.attempts} attempt(s) of ${init.endpoint}.`,
    });
    this.timeout = timeout;
  }
}

named({ ConnectionError, ConnectionTimeoutError });

/** True when no response arrived (including timeouts); see `outcomeUnknown` for what that means. */
export function isConnectionError(error: unknown): error is ConnectionError {
  return isKind(error, 'ConnectionError');
}

/** What the errors in this file are built from: the call, and optionally a composed message. */
export interface CallErrorInit extends Partial<CallInfo> {
  /** Method and path of the call. */
  endpoint: string;
  /** The whole message, when the caller composed one. */
  message?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** The caller's `AbortSignal` fired. Never retried; `outcomeUnknown` says whether a sent attempt may have acted. */
export class RequestAbortedError extends WalletError {
  /** @param init - the call; see {@link CallErrorInit}. */
  constructor(init: CallErrorInit) {
    super(init.message ?? `The request ${init.endpoint} was aborted by its signal.`, undefined, {
      cause: init.cause,
      call: init,
    });
  }
}

/** The client was closed before this call started; nothing was sent. */
export class ClientClosedError extends WalletError {
  /** @param init - the call; see {@link CallErrorInit}. */
  constructor(init: CallErrorInit) {
    super(
      init.message ?? `This Wallet client is closed; ${init.endpoint} was not sent. Create a new client.`,
      undefined,
      { cause: init.cause, call: { attempts: 0, ...init } },
    );
  }
}

/** The service answered with a body over the 1 MiB limit; it was cut off unread. Never retried. */
export class ResponseTooLargeError extends WalletError {
  /** HTTP status of the oversized response. */
  readonly status: number;
  /** Response headers, lowercase names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The limit, in bytes. */
  readonly limit: number;
  /** @param init - the call, the response's status and headers, and the limit. */
  constructor(
    init: CallErrorInit & { status: number; headers: Readonly<Record<string, string>>; limit: number },
  ) {
    super(
      init.message ??
        `The answer to ${init.endpoint} (HTTP ${init.status}) is larger than ${init.limit} bytes; it was not read.`,
      undefined,
      { call: init },
    );
    this.status = init.status;
    this.headers = init.headers;
    this.limit = init.limit;
  }
}

/**
 * `charges.waitForOutcome` ran out of time while the charge was still pending. The charge goes on:
 * the customer may still authorize it until its prompt expires, so keep your webhook, or verify
 * again before giving up on the order. `endpoint` is the verify call polled, `attempts` the polls.
 *
 * @example
 * ```ts
 * try {
 *   const tx = await wallet.charges.waitForOutcome('order_1042', { timeout: 60_000 });
 *   if (tx.status === 'SUCCESS') await fulfil(tx.reference, tx.amount);
 * } catch (error) {
 *   if (error instanceof WaitTimeoutError) console.log('still', error.transaction?.status);
 *   else throw error;
 * }
 * ```
 */
export class WaitTimeoutError extends WalletError {
  /** The last transaction seen, still pending; undefined when no poll succeeded. */
  readonly transaction: Transaction | undefined;
  /**
   * @param message - for a person. @param transaction - the last one seen.
   * @param options - the last poll's error as `cause`; the polled call as `call`.
   */
  constructor(message: string, transaction: Transaction | undefined, options?: WalletErrorOptions) {
    super(message, undefined, options);
    this.transaction = transaction;
  }
}

named({ RequestAbortedError, ClientClosedError, ResponseTooLargeError, WaitTimeoutError });
