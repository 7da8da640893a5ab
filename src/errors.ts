/**
 * The SDK's error tree, one file per branch under errors/. Every error extends {@link WalletError}
 * and carries a literal `name` and a stable `code`.
 */
export {
  WalletError,
  isWalletError,
  isApiError,
  isConnectionError,
  isValidationError,
  isWebhookVerificationError,
} from './errors/base.js';
export type { WalletErrorName } from './errors/base.js';
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
} from './errors/api.js';
export type { ResponseHeaders, ApiErrorInit } from './errors/api.js';
export { ConnectionError, ConnectionTimeoutError, RequestAbortedError } from './errors/connection.js';
export type { ConnectionErrorInit } from './errors/connection.js';
export { ValidationError, ResponseValidationError, WebhookVerificationError } from './errors/validation.js';
export type { ValidationIssue, WebhookVerificationReason } from './errors/validation.js';
export { WaitTimeoutError } from './errors/wait.js';
export type { WaitTimeoutInit } from './errors/wait.js';
