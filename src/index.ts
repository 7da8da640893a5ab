/**
 * `@wallet/node`: the official merchant SDK of the Wallet payment charging service.
 *
 * @packageDocumentation
 */
export {
  WalletError,
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
  ValidationError,
  ResponseValidationError,
  WebhookVerificationError,
  isWalletError,
  isApiError,
  isConnectionError,
  isValidationError,
  isWebhookVerificationError,
} from './errors.js';
export type {
  WalletErrorName,
  ResponseHeaders,
  ApiErrorInit,
  ConnectionErrorInit,
  ValidationIssue,
  WebhookVerificationReason,
} from './errors.js';
export type {
  OpenString,
  AuthChannel,
  JsonValue,
  ResolveHandleParams,
  Customer,
  AvailableAuthChannel,
  LinkedBank,
  ResolvedCustomer,
  DispatchParams,
  DispatchStatus,
  ChargeDispatch,
  TransactionStatus,
  TransactionChannel,
  Settlement,
  Transaction,
  RefundParams,
  RefundStatus,
  Refund,
} from './types.js';
