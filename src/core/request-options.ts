import type { ValidationIssue } from '../errors/base.js';
import { maxRetriesProblem, timeoutProblem } from './config.js';
import { checkHeaders } from './headers.js';
import { checkOptions, type OptionRule } from './options.js';

/** Per-call options, the last argument of every API method. Each overrides the client's for one call. */
export interface RequestOptions {
  /**
   * The `X-Idempotency-Key` of a POST. Reuse it when you retry a call yourself (after a crash or
   * an error whose `outcomeUnknown` is true) and the service answers with the original result
   * instead of acting twice.
   * @default a new UUID per call, the same across the SDK's own retries
   */
  idempotencyKey?: string | undefined;
  /**
   * Milliseconds allowed for one attempt, from connecting to the last byte of the body.
   * @default the client's `timeout` (30000)
   */
  timeout?: number | undefined;
  /**
   * Milliseconds for all attempts of this call together, waits included; each attempt is cut to
   * what is left.
   * @default the client's `totalTimeout` (60000)
   */
  totalTimeout?: number | undefined;
  /**
   * Retries after a connection failure, a timeout, 408, 429 or 5xx.
   * @default the client's `maxRetries` (2)
   */
  maxRetries?: number | undefined;
  /**
   * Cancels the call, including a wait between retries. Never retried.
   * @default undefined
   */
  signal?: AbortSignal | undefined;
  /**
   * Extra headers for this call; each replaces the client's default of the same name (any case).
   * @default {}
   */
  headers?: Record<string, string> | undefined;
}

export const RULES: Readonly<Record<string, OptionRule>> = {
  idempotencyKey: (v) =>
    typeof v === 'string' && /^[\x21-\x7e]{1,255}$/.test(v)
      ? undefined
      : 'must be 1 to 255 visible ASCII characters',
  timeout: timeoutProblem,
  totalTimeout: timeoutProblem,
  maxRetries: maxRetriesProblem,
  signal: (v) =>
    typeof (v as AbortSignal | null)?.addEventListener === 'function' &&
    typeof (v as AbortSignal).aborted === 'boolean'
      ? undefined
      : 'must be an AbortSignal',
  headers: (v, path) => checkHeaders(v, path),
};

/** Every problem with a call's options, by name. */
export function checkRequestOptions(options: unknown): ValidationIssue[] {
  return checkOptions(options, RULES, 'options', 'a request option');
}
