/**
 * Type guards for the branches of the error tree. They test the brand and name that every copy of
 * the package sets, so they hold across copies and need the subclasses only as types; base.ts
 * stays free of any import of its subclasses.
 */
import type { ApiError } from './api.js';
import { isKind } from './base.js';
import type { ConnectionError } from './connection.js';
import type { ValidationError, WebhookVerificationError } from './validation.js';

/** True when the service answered with an error status or an error envelope. */
export function isApiError(error: unknown): error is ApiError {
  return isKind(error, 'ApiError');
}
/** True when no response arrived (including timeouts); see `outcomeUnknown` for what that means. */
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
