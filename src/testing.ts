/**
 * `@wallet/node/testing`: the offline sandbox of the service, for merchants' tests and local runs.
 *
 * @packageDocumentation
 */
export { FetchDispatcher } from './testing/fetch-dispatcher.js';
export type { FetchHandler } from './testing/fetch-dispatcher.js';
export { createSandbox } from './testing/sandbox.js';
export type { Sandbox, SandboxOptions, AuthorizeResult } from './testing/sandbox-api.js';
export { SandboxError } from './testing/http.js';
export { defaultSandboxCustomers } from './testing/customers.js';
export type { SandboxCustomer, SandboxCustomerInit, SandboxBankInit } from './testing/customers.js';
export type {
  SandboxCharge,
  SandboxChargeStatus,
  SandboxRefund,
  SandboxDebit,
  SandboxDeliveryAttempt,
  SandboxRequestRecord,
} from './testing/state.js';
export type { SandboxRequestContext } from './testing/router.js';
export type { SandboxMswHandler } from './testing/msw.js';
export type { SandboxListenOptions, SandboxServer } from './testing/server.js';
export type { WebhookRetryOptions, WebhookOutcome, WebhookDelivery } from './testing/webhook-delivery.js';
export type { SandboxLogger } from './testing/log.js';
export type { SandboxFaults, SandboxFaultKind } from './testing/faults.js';
export { signWebhook } from './webhooks/sign.js';
export type { SignedWebhook } from './webhooks/sign.js';
