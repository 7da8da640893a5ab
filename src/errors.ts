/**
 * The SDK's error tree, one file per branch under errors/. Every error extends {@link WalletError}
 * and carries a literal `name` and a stable `code`.
 */
export { WalletError, isWalletError } from './errors/base.js';
export {
  isApiError,
  isConnectionError,
  isValidationError,
  isWebhookVerificationError,
} from './errors/guards.js';
export type { WalletErrorName, WalletErrorCode, CallInfo, WalletErrorOptions } from './errors/base.js';
export {
  ApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  API_ERROR_BY_STATUS,
} from './errors/api.js';
export type { ResponseHeaders, ApiErrorInit } from './errors/api.js';
export { ConnectionError, ConnectionTimeoutError } from './errors/connection.js';
export {
  RequestAbortedError,
  ClientClosedError,
  ResponseTooLargeError,
  WaitTimeoutError,
} from './errors/call.js';
export type { CallErrorInit } from './errors/call.js';
export type { ConnectionErrorInit } from './errors/connection.js';
export { ValidationError, ResponseValidationError, WebhookVerificationError } from './errors/validation.js';
export type { ValidationIssue, WebhookVerificationReason } from './errors/validation.js';
export { IdempotencyError } from './errors/idempotency.js';
export type { IdempotencyErrorCode, IdempotencyErrorInit } from './errors/idempotency.js';
