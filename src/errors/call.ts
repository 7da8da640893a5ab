/** The errors an API call ends in: an error answer, no answer, its own end, a reused idempotency key. */
import {
  WalletError,
  isKind,
  named,
  type CallInfo,
  type ValidationIssue,
  type WalletErrorCode,
} from './base.js';

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
 * The service answered with an error: a non-2xx status, or a 2xx whose envelope `status` is `"error"`.
 * `outcomeUnknown` is true when an earlier attempt may have acted (a dropped connection, then this).
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

type ApiErrorClass = new (init: ApiErrorInit) => ApiError;
/** The error class for an HTTP status: one table, read by the transport. */
export const API_ERROR_BY_STATUS: ReadonlyMap<number, ApiErrorClass> = new Map<number, ApiErrorClass>([
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [409, ConflictError],
  [422, UnprocessableEntityError],
  [429, RateLimitError],
]);

/** True when the service answered with an error status or an error envelope. */
export function isApiError(error: unknown): error is ApiError {
  return isKind(error, 'ApiError');
}

/** What the errors of a call are built from: the call, and optionally a composed message. */
export interface CallErrorInit extends Partial<CallInfo> {
  /** Method and path of the call. */
  endpoint: string;
  /** The whole message, when the caller composed one. */
  message?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** What a {@link ConnectionError} is built from. */
export interface ConnectionErrorInit extends CallErrorInit {
  /** The idempotency key of a POST, which makes retrying it safe. */
  idempotencyKey: string | undefined;
  /** The underlying network error, scrubbed of the key. */
  cause: unknown;
  /** How many attempts were made. */
  attempts: number;
}

/**
 * No response arrived: the connection could not be made, failed or was reset. `outcomeUnknown` says
 * whether the service may have acted (false when nothing reached it: DNS, refused); retrying with the
 * carried `idempotencyKey` is always safe.
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

/** True when no response arrived (including timeouts); see `outcomeUnknown` for what that means. */
export function isConnectionError(error: unknown): error is ConnectionError {
  return isKind(error, 'ConnectionError');
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

/** The client, or the dispatcher it was given, was closed: the last attempt was not sent (see `outcomeUnknown` for earlier ones). */
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
  readonly headers: ResponseHeaders;
  /** The limit, in bytes. */
  readonly limit: number;
  /** @param init - the call, the response's status and headers, and the limit. */
  constructor(init: CallErrorInit & { status: number; headers: ResponseHeaders; limit: number }) {
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

/** The service answered 2xx with a body that breaks a documented field. */
export class ResponseValidationError extends WalletError {
  /** The response body as received (parsed JSON, or text). */
  readonly body: unknown;
  /** The broken fields. */
  readonly issues: readonly ValidationIssue[];
  /** HTTP status of the response. */
  readonly status: number;
  /** @param code - `invalid_response` by default; `reference_mismatch` for an answer about another reference. */
  constructor(
    endpoint: string,
    status: number,
    body: unknown,
    issues: readonly ValidationIssue[],
    call?: Partial<CallInfo>,
    code?: 'invalid_response' | 'reference_mismatch',
  ) {
    const list = issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ');
    super(`Unexpected response from ${endpoint}: ${list}`, code, { call: { ...call, endpoint } });
    this.body = body;
    this.issues = issues;
    this.status = status;
  }
}

/** Why an {@link IdempotencyError} was thrown. */
export type IdempotencyErrorCode = 'idempotency_key_reused' | 'replay_mismatch';

/** What an {@link IdempotencyError} is built from. */
export interface IdempotencyErrorInit extends Partial<CallInfo> {
  /** Method and path of the call. */
  endpoint: string;
  /** The key in question. */
  idempotencyKey: string;
  /** The whole message. */
  message: string;
  /** For `replay_mismatch`: the `data` the service answered with. */
  received?: unknown;
}

/**
 * The service answers a repeated `X-Idempotency-Key` with the first request's saved response, so one
 * key must belong to one operation (stored with its record, the refund row, before sending):
 * - `idempotency_key_reused`: this client already sent the key with other parameters; nothing was sent.
 * - `replay_mismatch`: the answer is another request's (another reference, amount or channel) and this
 *   request was not carried out; `received` holds that answer. When an earlier attempt of the call may
 *   have acted (a 5xx, a lost connection), `outcomeUnknown` is true: confirm before sending it again.
 *
 * @example
 * ```ts
 * const refundRowId = crypto.randomUUID(); // saved with your refund row before sending
 * try {
 *   await wallet.refunds.create({ reference: 'order_1042', amount: 50_000 }, { idempotencyKey: refundRowId });
 * } catch (error) {
 *   if (error instanceof IdempotencyError) console.error('key already used for another operation:', error.idempotencyKey);
 *   else throw error;
 * }
 * ```
 */
export class IdempotencyError extends WalletError {
  declare readonly code: IdempotencyErrorCode;
  /** The key in question. */
  declare readonly idempotencyKey: string;
  /** For `replay_mismatch`, the `data` the service answered with; undefined otherwise. */
  readonly received: unknown;

  /** @param code - see the class. @param init - see {@link IdempotencyErrorInit}. */
  constructor(code: IdempotencyErrorCode, init: IdempotencyErrorInit) {
    super(init.message, code, { call: { attempts: 0, outcomeUnknown: false, ...init } });
    this.received = init.received;
  }
}

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
  ConnectionError,
  ConnectionTimeoutError,
  RequestAbortedError,
  ClientClosedError,
  ResponseTooLargeError,
  ResponseValidationError,
  IdempotencyError,
});
