/**
 * `@wallet/node/webhooks`: verify and handle the service's signed webhook deliveries. Loads
 * neither undici nor zod, so a webhook route that never calls the API stays light.
 *
 * @packageDocumentation
 */
export { WebhookVerificationError, isWebhookVerificationError } from './errors.js';
export type { WebhookVerificationReason } from './errors.js';
