/**
 * `@wallet/node/webhooks`: verify and handle the service's signed webhook deliveries. Loads neither
 * undici, zod nor a Redis client, and `node:crypto` only when a sync function first needs it, so the
 * async verifier and the Fetch handler also run on edge runtimes with only Web Crypto.
 *
 * @module \@wallet/node/webhooks
 */
// From the error files, not the errors.ts barrel: the API and connection errors stay out of this bundle.
export { WalletError, isWalletError, ValidationError, isValidationError } from './errors/base.js';
export type { ValidationIssue } from './errors/base.js';
export { WebhookVerificationError, isWebhookVerificationError } from './errors/webhook.js';
export type { WebhookVerificationReason } from './errors/webhook.js';
export { verifyWebhook, verifyWebhookAsync, signWebhook, type SignedWebhook } from './webhooks/verify.js';
export { createWebhookHandler, type FetchWebhookHandler } from './webhooks/handlers.js';
export { createNodeWebhookHandler, type NodeWebhookHandler } from './webhooks/handlers.js';
export type { WebhookHandlerOptions, WebhookErrorContext } from './webhooks/delivery.js';
export { memoryDedupeStore, type MemoryDedupeStoreOptions } from './webhooks/dedupe/store.js';
export type { WebhookDedupeStore, DedupeClaim } from './webhooks/dedupe/store.js';
export { redisDedupeStore, type RedisDedupeStoreOptions } from './webhooks/dedupe/redis.js';
export type { RedisClientLike, NodeRedisClientLike, IoRedisClientLike } from './webhooks/dedupe/redis.js';
export { WEBHOOK_SIGNATURE_HEADER } from './webhooks/signature.js';
export type {
  KnownWebhookEventKind,
  ChargeSuccessData,
  ChargeSuccessEvent,
  UnknownWebhookEventKind,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookSecret,
  WebhookSignatureHeader,
  RawWebhookBody,
} from './webhooks/types.js';
