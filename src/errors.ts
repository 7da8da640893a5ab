/**
 * The SDK's error tree, under errors/: the base (base.ts), the errors a call ends in (call.ts),
 * and the refusals of a check (validation.ts). Every error extends {@link WalletError} and carries
 * a literal `name` and a stable `code`.
 */
export { WalletError, isWalletError } from './errors/base.js';
export { isApiError, isConnectionError } from './errors/call.js';
export { isValidationError, isWebhookVerificationError } from './errors/validation.js';
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
} from './errors/call.js';
export type { ResponseHeaders, ApiErrorInit } from './errors/call.js';
export { ConnectionError, ConnectionTimeoutError } from './errors/call.js';
export {
  RequestAbortedError,
  ClientClosedError,
  ResponseTooLargeError,
  WaitTimeoutError,
} from './errors/call.js';
export type { CallErrorInit } from './errors/call.js';
export type { ConnectionErrorInit } from './errors/call.js';
export { ValidationError, ResponseValidationError, WebhookVerificationError } from './errors/validation.js';
export type { ValidationIssue, WebhookVerificationReason } from './errors/validation.js';
export { IdempotencyError } from './errors/validation.js';
export type { IdempotencyErrorCode, IdempotencyErrorInit } from './errors/validation.js';
