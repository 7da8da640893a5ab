/**
 * `@wallet/node/testing`: the offline sandbox of the service, for merchants' tests and local runs.
 *
 * @module \@wallet/node/testing
 */
export { FetchDispatcher } from './testing/transports/in-process.js';
export type { FetchHandler, SandboxMswHandler } from './testing/transports/in-process.js';
export { createSandbox } from './testing/sandbox.js';
export type { Sandbox, SandboxOptions, AuthorizeResult } from './testing/api.js';
export { SandboxError } from './testing/state/records.js';
export { defaultSandboxCustomers } from './testing/state/customers.js';
export type { SandboxCustomer, SandboxCustomerInit, SandboxBankInit } from './testing/state/customers.js';
export type {
  SandboxCharge,
  SandboxChargeStatus,
  SandboxRefund,
  SandboxDebit,
  SandboxDeliveryAttempt,
  SandboxRequestRecord,
  SandboxFaultKind,
} from './testing/state/records.js';
export type { SandboxRequestContext } from './testing/endpoints/router.js';
export type { SandboxListenOptions, SandboxServer } from './testing/transports/server.js';
export type { WebhookRetryOptions, WebhookOutcome, WebhookDelivery } from './testing/webhooks/sender.js';
export type { SandboxLogger } from './testing/endpoints/log.js';
export type { SandboxFaults } from './testing/endpoints/faults.js';
export type { WebhookTarget } from './testing/webhooks/sender.js';
export type { SandboxClock } from './testing/state/clock.js';
export type { SandboxSeedCharge, SandboxSeedResult, SandboxSeedStatus } from './testing/state/seed.js';
export { signWebhook, type SignedWebhook } from './webhooks/verify.js';
