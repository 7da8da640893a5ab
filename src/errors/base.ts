/** The error tree's root; guards and `instanceof` read a global brand, so they hold across package copies. */
import { boundedCopy, safeCopy } from '../internal/values.js';

const BRAND = Symbol.for('@wallet/node.error');

/**
 * The `code` of an SDK error: stable, machine-readable, to branch on. Each class has its own
 * (`not_found`, `connection_timeout`, …); a few say more: `endpoint_not_found` (a 404 not from the
 * service: check the base URL), `see_other` and `redirect_refused` (a 3xx, never followed),
 * `reference_mismatch`. A `switch` on it is checked: a code that does not exist does not compile.
 *
 * @example
 * ```ts
 * try {
 *   await wallet.charges.verify('order_1042');
 * } catch (error) {
 *   if (!isWalletError(error)) throw error;
 *   switch (error.code) {
 *     case 'endpoint_not_found': // the base URL points at something that is not the service
 *     case 'authentication_failed':
 *       throw error;
 *     default:
 *       console.warn(error.code, error.message);
 *   }
 * }
 * ```
 */
export type WalletErrorCode =
  | 'wallet_error'
  | 'api_error'
  | 'bad_request'
  | 'authentication_failed'
  | 'permission_denied'
  | 'not_found'
  | 'endpoint_not_found'
  | 'conflict'
  | 'unprocessable_entity'
  | 'rate_limited'
  | 'internal_server_error'
  | 'see_other'
  | 'redirect_refused'
  | 'connection_error'
  | 'connection_timeout'
  | 'request_aborted'
  | 'client_closed'
  | 'response_too_large'
  | 'wait_timeout'
  | 'invalid_request'
  | 'invalid_response'
  | 'reference_mismatch'
  | 'webhook_verification_failed'
  | 'webhook_missing_secret'
  | 'webhook_missing_signature'
  | 'webhook_malformed_signature'
  | 'webhook_signature_mismatch'
  | 'webhook_raw_body_required'
  | 'webhook_invalid_payload'
  | 'webhook_body_too_large'
  | 'webhook_body_timeout'
  | 'webhook_event_in_progress'
  | 'webhook_dedupe_unavailable'
  | 'webhook_dedupe_not_recorded'
  | 'webhook_dedupe_lease_lost'
  | 'node_crypto_unavailable'
  | 'web_crypto_unavailable'
  // @wallet/agent-toolkit's, thrown by walletTools when its spend ledger cannot be used.
  | 'ledger_required'
  | 'time_zone_mismatch'
  | 'sandbox_refused'
  | 'idempotency_key_reused'
  | 'replay_mismatch'
  | 'browser_refused';

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
  | 'ClientClosedError'
  | 'ResponseTooLargeError'
  | 'WaitTimeoutError'
  | 'ValidationError'
  | 'ResponseValidationError'
  | 'WebhookVerificationError'
  | 'SandboxError'
  | 'IdempotencyError';

// The whole tree in one table: each SDK class's parent and default code.
const TREE: Readonly<Record<WalletErrorName, readonly [WalletErrorName | undefined, WalletErrorCode]>> = {
  WalletError: [undefined, 'wallet_error'],
  ApiError: ['WalletError', 'api_error'],
  BadRequestError: ['ApiError', 'bad_request'],
  AuthenticationError: ['ApiError', 'authentication_failed'],
  PermissionDeniedError: ['ApiError', 'permission_denied'],
  NotFoundError: ['ApiError', 'not_found'],
  ConflictError: ['ApiError', 'conflict'],
  UnprocessableEntityError: ['ApiError', 'unprocessable_entity'],
  RateLimitError: ['ApiError', 'rate_limited'],
  InternalServerError: ['ApiError', 'internal_server_error'],
  ConnectionError: ['WalletError', 'connection_error'],
  ConnectionTimeoutError: ['ConnectionError', 'connection_timeout'],
  RequestAbortedError: ['WalletError', 'request_aborted'],
  ClientClosedError: ['WalletError', 'client_closed'],
  ResponseTooLargeError: ['WalletError', 'response_too_large'],
  WaitTimeoutError: ['WalletError', 'wait_timeout'],
  ValidationError: ['WalletError', 'invalid_request'],
  ResponseValidationError: ['WalletError', 'invalid_response'],
  WebhookVerificationError: ['WalletError', 'webhook_verification_failed'],
  SandboxError: ['WalletError', 'sandbox_refused'],
  IdempotencyError: ['WalletError', 'replay_mismatch'],
};

/** True when `value` is an SDK error of `kind` or below it, from any copy of the package. @internal */
export function isKind(value: unknown, kind: WalletErrorName): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const brand = (value as { [BRAND]?: unknown })[BRAND];
  if (brand === undefined) return false;
  let name = (typeof brand === 'string' ? brand : (value as { name?: unknown }).name) as string | undefined;
  while (name !== undefined) {
    if (name === kind) return true;
    name = (TREE as Record<string, readonly [string | undefined, string] | undefined>)[name]?.[0];
  }
  return false;
}

/** What an API call tells about itself on every error it ends in. */
export interface CallInfo {
  /** Method and path template of the call, for example `POST /v1/refunds`. */
  endpoint: string;
  /** Attempts made, retries included. */
  attempts: number;
  /** The `X-Idempotency-Key` of a POST; retrying with it is always safe. */
  idempotencyKey: string | undefined;
  /** True when some attempt may have reached the service and none got a definitive answer. */
  outcomeUnknown: boolean;
}

/** Options of the {@link WalletError} constructor. */
export interface WalletErrorOptions {
  /** The underlying error. */
  cause?: unknown;
  /** The API call the error ended, when there was one. */
  call?: Partial<CallInfo> | undefined;
}

/**
 * Base class of every error the SDK throws. An error from an API call also says which call it
 * was (`endpoint`), how many `attempts` it took, the `idempotencyKey` of a POST, and whether the
 * service may have acted on it (`outcomeUnknown`, false on every other error).
 *
 * @example
 * ```ts
 * const idempotencyKey = crypto.randomUUID(); // stored with your refund row before sending
 * try {
 *   await wallet.refunds.create({ reference: 'order_1042' }, { idempotencyKey });
 * } catch (error) {
 *   // The refund may have happened: retry with the same key; the service never applies it twice.
 *   if (isWalletError(error) && error.outcomeUnknown) console.warn('retry later with', error.idempotencyKey);
 *   else throw error;
 * }
 * ```
 */
export class WalletError extends Error {
  /** The class's literal name; stable across versions, copies of the package and minifiers. */
  declare readonly name: WalletErrorName;
  /** A stable, machine-readable code to branch on; see {@link WalletErrorCode}. */
  readonly code: WalletErrorCode;
  /** Method and path of the API call, for example `POST /v1/refunds`; undefined outside a call. */
  declare readonly endpoint: string | undefined;
  /** Attempts the call made, retries included; undefined outside a call. */
  declare readonly attempts: number | undefined;
  /** The idempotency key a POST carried: retry with it and the service never acts twice. */
  declare readonly idempotencyKey: string | undefined;
  /**
   * True when the service may have acted on the call although no answer said so: retry with
   * `idempotencyKey` (or confirm) before telling the customer anything. False outside an API call.
   */
  declare readonly outcomeUnknown: boolean;

  /** @param code - defaults to the class's own. @param options - the `cause`, and the API call it ended. */
  constructor(message: string, code?: WalletErrorCode, options?: WalletErrorOptions) {
    // A plain-data copy of the cause, so that console.error(error) can neither throw nor show what it holds.
    super(message, options?.cause === undefined ? undefined : { cause: safeCopy(options.cause) });
    // The SDK class this is or extends: the nearest one that declares its own `kind`. Walked here, not
    // in a helper: terser (webpack's minifier) inlines a helper given `new.target` into a function of
    // its own, where `new.target` is undefined, and every error became a plain WalletError.
    let c: { kind?: WalletErrorName } | null = new.target;
    while (c && !Object.hasOwn(c, 'kind')) c = Object.getPrototypeOf(c) as typeof c;
    const kind = c?.kind ?? 'WalletError';
    this.code = code ?? TREE[kind][1];
    Object.defineProperty(this, BRAND, { value: kind });
    const call = options?.call;
    if (call) {
      const { endpoint, attempts, idempotencyKey, outcomeUnknown = false } = call;
      Object.assign(this, { endpoint, attempts, idempotencyKey, outcomeUnknown });
    }
  }

  /** `instanceof` by brand for the SDK's classes (any copy); ordinary for a merchant's subclass. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (!Object.hasOwn(this, 'kind')) return Function.prototype[Symbol.hasInstance].call(this, value);
    return isKind(value, (this as unknown as { kind: WalletErrorName }).kind);
  }

  /** The SDK class that `instanceof` checks for, set by {@link named}. @internal */
  declare static readonly kind: WalletErrorName;

  /** A plain, bounded copy for loggers and `JSON.stringify`; never throws, whatever the body holds. */
  toJSON(): Record<string, unknown> {
    try {
      const { name, code, message, outcomeUnknown } = this;
      const out: Record<string, unknown> = { name, code, message, outcomeUnknown };
      for (const key of Object.keys(this)) {
        if (!(key in out)) out[key] = boundedCopy((this as unknown as Record<string, unknown>)[key]);
      }
      if (this.cause !== undefined) out.cause = boundedCopy(this.cause);
      return out;
    } catch {
      return { name: String(this.name), code: String(this.code), message: String(this.message) };
    }
  }
}

/** Sets each SDK class's literal `name` (overridable by a subclass) and `kind`, minifier-proof. @internal */
export function named(classes: Readonly<Partial<Record<WalletErrorName, { prototype: object }>>>): void {
  for (const [name, Class] of Object.entries(classes)) {
    Object.defineProperty(Class, 'kind', { value: name });
    Object.defineProperty(Class.prototype, 'name', { value: name, writable: true, configurable: true });
  }
}

// Every error can be asked; only an error from an API call can say true.
Object.defineProperty(WalletError.prototype, 'outcomeUnknown', { value: false, writable: true });

/** One problem with a request parameter. */
export interface ValidationIssue {
  /** Dotted path of the field, for example `amount` or `metadata.items.0`. Empty for the whole input. */
  path: string;
  /** What is wrong with it. */
  message: string;
}

/** A parameter is wrong: of a request (then nothing was sent), of the client's options, or of a money helper. */
export class ValidationError extends WalletError {
  /** Every problem found, by field. */
  readonly issues: readonly ValidationIssue[];
  /**
   * @param context - what was checked, such as `dispatch parameters`. @param note - a closing sentence.
   * @param call - the API call, when the HTTP layer refused it before sending.
   */
  constructor(
    context: string,
    issues: readonly ValidationIssue[],
    note = '',
    call?: Partial<CallInfo> & { cause?: unknown },
  ) {
    const list = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    super(
      `Invalid ${context}: ${list}.${note && ` ${note}`}`,
      undefined,
      call && { cause: call.cause, call },
    );
    this.issues = issues;
  }
}

named({ WalletError, ValidationError });

/** True for any error thrown by this SDK, from any copy of the package. */
export function isWalletError(error: unknown): error is WalletError {
  return isKind(error, 'WalletError');
}
/** True when request parameters were refused before anything was sent. */
export function isValidationError(error: unknown): error is ValidationError {
  return isKind(error, 'ValidationError');
}
