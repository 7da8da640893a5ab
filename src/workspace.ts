/**
 * `@wallet/node/workspace`: the internal subpath of this repository's own packages
 * (`@wallet/agent-toolkit`, `@wallet/cli`), so that each rule they share with the SDK has one copy,
 * the SDK's. Not for merchants: it may change in any release.
 *
 * @internal
 * @module \@wallet/node/workspace
 */
export { redisCommand, withTimeout } from './webhooks/dedupe/redis.js';
export type { RedisCommand } from './webhooks/dedupe/redis.js';
export { webhookBody } from './testing/webhooks/sender.js';
export { escapeControls } from './testing/endpoints/log.js';
export {
  MAX_TIMER_MS,
  checkOptions,
  ofType,
  readOptions,
  wholeNumber,
  type OptionRule,
} from './core/options.js';
export { closest, isQuoted } from './internal/values.js';
