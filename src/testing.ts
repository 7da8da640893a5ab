/**
 * `@wallet/node/testing`: the offline sandbox of the service, for merchants' tests and local runs.
 *
 * @packageDocumentation
 */
export { FetchDispatcher } from './testing/fetch-dispatcher.js';
export type { FetchHandler } from './testing/fetch-dispatcher.js';
