/**
 * `@wallet/node`: the official merchant SDK of the Wallet payment charging service.
 *
 * @module \@wallet/node
 */
export { Wallet, VERSION } from './client.js';
export { APIPromise, type RequestOptions } from './core/transport.js';
export type { ResponseMeta, WithResponse, FetchFunction } from './core/types.js';
export type { ClientOptions, AppInfo } from './core/config.js';
export type { Dispatcher, DispatchOptions, DispatchHandler, DispatchController } from './platform/types.js';
export type {
  LogLevel,
  LogSink,
  RequestTraceMessage,
  RequestRetryMessage,
  TracedError,
} from './core/trace.js';
export { Charges, Refunds } from './resources/charges.js';
export { WaitTimeoutError, type WaitForOutcomeOptions } from './resources/wait-for-outcome.js';
export type {
  AnyIterable,
  VerifyManyOptions,
  VerifyResult,
  VerifiedResult,
  FailedResult,
} from './resources/verify-many.js';
export { VERDICTS } from './resources/reconcile.js';
export type {
  LedgerRow,
  LedgerStatus,
  Verdict,
  ReconcileLine,
  ReconcileOptions,
  ReconcileProgress,
} from './resources/reconcile.js';
export { summarizeSettlements, type SettlementDay, type SettlementOptions } from './resources/settlements.js';
export { toKobo, toNaira, formatNaira, estimateFee, type FormatNairaOptions } from './money.js';
export {
  verifyWebhook,
  verifyWebhookAsync,
  signWebhook,
  createWebhookHandler,
  createNodeWebhookHandler,
  memoryDedupeStore,
  redisDedupeStore,
  WEBHOOK_SIGNATURE_HEADER,
} from './webhooks.js';
export type {
  SignedWebhook,
  FetchWebhookHandler,
  NodeWebhookHandler,
  WebhookHandlerOptions,
  WebhookErrorContext,
  WebhookDedupeStore,
  DedupeClaim,
  MemoryDedupeStoreOptions,
  RedisDedupeStoreOptions,
  RedisClientLike,
  NodeRedisClientLike,
  IoRedisClientLike,
  KnownWebhookEventKind,
  ChargeSuccessData,
  ChargeSuccessEvent,
  UnknownWebhookEventKind,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookSecret,
  WebhookSignatureHeader,
  RawWebhookBody,
} from './webhooks.js';
export { WalletError, ValidationError, isWalletError, isValidationError } from './errors/base.js';
export { WebhookVerificationError, isWebhookVerificationError } from './errors/webhook.js';
export type {
  WalletErrorName,
  WalletErrorCode,
  WalletErrorOptions,
  CallInfo,
  ValidationIssue,
} from './errors/base.js';
export type { WebhookVerificationReason } from './errors/webhook.js';
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
  ConnectionError,
  ConnectionTimeoutError,
  RequestAbortedError,
  ClientClosedError,
  ResponseTooLargeError,
  ResponseValidationError,
  IdempotencyError,
  isApiError,
  isConnectionError,
  type CallErrorInit,
  type ResponseHeaders,
  type ApiErrorInit,
  type ConnectionErrorInit,
  type IdempotencyErrorCode,
  type IdempotencyErrorInit,
} from './errors/call.js';
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
  TransactionFields,
  PaidTransaction,
  UnpaidTransaction,
  UnknownTransactionStatus,
  RefundParams,
  RefundStatus,
  Refund,
} from './types.js';
