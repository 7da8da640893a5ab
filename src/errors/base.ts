/**
 * The root of the error tree. Guards and `instanceof` work by name and a global brand, not by class
 * identity, so they hold when two copies of the package are loaded (a bundled dependency, a
 * monorepo). Like every file under errors/, it imports nothing at run time: the webhooks entry
 * loads it and must stay light.
 */
import type { ApiError } from './api.js';
import type { ConnectionError } from './connection.js';
import type { ValidationError, WebhookVerificationError } from './validation.js';

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
  | 'WebhookVerificationError'
  | 'SandboxError';

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
  SandboxError: 'WalletError',
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
