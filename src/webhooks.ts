/**
 * `@wallet/node/webhooks`: verify and handle the service's signed webhook deliveries. Loads
 * neither undici nor zod, so a webhook route that never calls the API stays light; `node:crypto` is
 * loaded only when a sync function first needs it, so the async verifier and the Fetch handler also
 * run on edge runtimes that have only Web Crypto.
 *
 * @module \@wallet/node/webhooks
 */
export { WebhookVerificationError, isWebhookVerificationError } from './errors.js';
export type { WebhookVerificationReason } from './errors.js';
export { verifyWebhook } from './webhooks/verify.js';
export { verifyWebhookAsync } from './webhooks/verify-async.js';
export { signWebhook } from './webhooks/sign.js';
export type { SignedWebhook } from './webhooks/sign.js';
export { createWebhookHandler } from './webhooks/fetch-handler.js';
export type { FetchWebhookHandler } from './webhooks/fetch-handler.js';
export { createNodeWebhookHandler } from './webhooks/node-handler.js';
export type { NodeWebhookHandler } from './webhooks/node-handler.js';
export type { WebhookHandlerOptions, WebhookErrorContext } from './webhooks/handler-common.js';
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
