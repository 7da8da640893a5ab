/**
 * The root of the error tree. Guards and `instanceof` work by a global brand that records the
 * SDK class an error was built as, not by class identity, so they hold when two copies of the
 * package are loaded (a bundled dependency, a monorepo). A merchant's own subclass gets ordinary
 * `instanceof`. Like every file under errors/, it imports nothing at run time but the small
 * `internal/safe-copy.ts`: the webhooks entry loads it and must stay light.
 */
import { boundedCopy, safeCopy } from '../internal/safe-copy.js';

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
  | 'ClientClosedError'
  | 'ResponseTooLargeError'
  | 'WaitTimeoutError'
  | 'ValidationError'
  | 'ResponseValidationError'
  | 'WebhookVerificationError'
  | 'SandboxError'
  | 'IdempotencyError';

/**
 * The `code` of an SDK error: a stable, machine-readable value to branch on. Each class has its
 * own code (`not_found`, `connection_timeout`, …); a few codes say more than their class:
 * `endpoint_not_found` (a 404 that is not the service's answer: check the base URL),
 * `see_other` and `redirect_refused` (a 3xx, never followed), `idempotency_key_reused`,
 * `reference_mismatch`, `browser_refused`, the `webhook_…` reasons of a
 * {@link WebhookVerificationError}, and the webhook handlers' own (`webhook_body_too_large`,
 * `webhook_event_in_progress`, `webhook_dedupe_…`). A `switch` on it is checked: a code that does not exist does
 * not compile.
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

// One table for the whole tree: each class's parent and default code.
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
    name = (TREE as Partial<Record<string, readonly [WalletErrorName | undefined, string]>>)[name]?.[0];
  }
  return false;
}

/** The SDK class a constructor is, or extends: the nearest one that declares its own `kind`. */
function sdkKind(target: unknown): WalletErrorName {
  let c = target as { kind?: WalletErrorName } | null;
  while (c && !Object.hasOwn(c, 'kind')) c = Object.getPrototypeOf(c) as typeof c;
  return c?.kind ?? 'WalletError';
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
   * `idempotencyKey` (or confirm) before you tell the customer anything. False when nothing reached
   * the service or it answered definitively, and on every error that is not from an API call.
   */
  declare readonly outcomeUnknown: boolean;

  /**
   * @param message - what went wrong, for a person.
   * @param code - see {@link WalletError.code}; defaults to the class's own code.
   * @param options - the `cause`, and the API call the error ended.
   */
  constructor(message: string, code?: WalletErrorCode, options?: WalletErrorOptions) {
    // The cause is kept as a plain-data copy: a DOMException copy, a Request or a Proxy in it would
    // make console.error(error) throw or show what it holds.
    super(message, options?.cause === undefined ? undefined : { cause: safeCopy(options.cause) });
    const kind = sdkKind(new.target);
    this.code = code ?? TREE[kind][1];
    Object.defineProperty(this, BRAND, { value: kind });
    const call = options?.call;
    if (call) {
      Object.assign(this, {
        endpoint: call.endpoint,
        attempts: call.attempts,
        idempotencyKey: call.idempotencyKey,
        outcomeUnknown: call.outcomeUnknown ?? false,
      });
    }
  }

  /** `instanceof` by brand for the SDK's classes (any copy); ordinary for a merchant's subclass. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (!Object.hasOwn(this, 'kind')) return Function.prototype[Symbol.hasInstance].call(this, value);
    return isKind(value, (this as unknown as { kind: WalletErrorName }).kind);
  }

  /** The SDK class name that `instanceof` checks for; {@link named} sets it on each SDK class. @internal */
  declare static readonly kind: WalletErrorName;

  /** A plain, bounded copy for loggers and `JSON.stringify`; never throws, whatever the body holds. */
  toJSON(): Record<string, unknown> {
    try {
      const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
      out.outcomeUnknown = this.outcomeUnknown;
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

/**
 * Gives SDK classes their literal `name` (on the prototype, so a merchant's subclass may set its
 * own) and the `kind` that `instanceof` and the guards read. Keys are the names: a minifier that
 * renames classes cannot change them. @internal
 */
export function named(classes: Readonly<Partial<Record<WalletErrorName, { prototype: object }>>>): void {
  for (const [name, Class] of Object.entries(classes)) {
    Object.defineProperty(Class, 'kind', { value: name });
    Object.defineProperty(Class.prototype, 'name', { value: name, writable: true, configurable: true });
  }
}

named({ WalletError });
// Every error can be asked; only an error from an API call can say true.
Object.defineProperty(WalletError.prototype, 'outcomeUnknown', { value: false, writable: true });

/** True for any error thrown by this SDK, from any copy of the package. */
export function isWalletError(error: unknown): error is WalletError {
  return isKind(error, 'WalletError');
}
