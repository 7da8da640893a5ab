/**
 * The options both webhook handlers take, checked once at creation so a mistake fails at startup
 * rather than on each delivery.
 */
import {
  MAX_INT32,
  MAX_TIMER_MS,
  checkOptions,
  ofType,
  throwIssues,
  wholeNumber,
  type OptionRule,
} from '../core/options.js';
import type { ValidationIssue, WebhookVerificationError } from '../errors/validation.js';
import type { WebhookDedupeStore } from './dedupe/store.js';
import { checkSecrets, missingSecretError, secretsOf } from './signature.js';
import type { WebhookEvent, WebhookSecret } from './types.js';

/** Facts about a delivery that was not acknowledged, for {@link WebhookHandlerOptions.onError}. */
export interface WebhookErrorContext {
  /**
   * The HTTP status the handler answered: 400, 405, 408, 413, 500 or 503; or 200 when `onEvent`
   * succeeded but the dedupe store could not record it (the event may run again once its claim
   * expires).
   */
  status: number;
}

/** Options of {@link createWebhookHandler} and {@link createNodeWebhookHandler}. */
export interface WebhookHandlerOptions {
  /**
   * Your webhook secret, or several during a rotation (any may match). A secret that is given but
   * malformed (an empty array, a number, an empty entry in an array) throws at creation. A missing
   * one (`undefined` or `''`, as `process.env.WALLET_WEBHOOK_SECRET` is during a `next build` with no
   * variables) does not: the handler is built, and answers each delivery 500 and reports it through
   * `onError` naming the missing secret, so the service delivers again once it is set.
   */
  secret: WebhookSecret | undefined;
  /**
   * Called once per verified delivery; may return a promise (its value is ignored). The handler
   * answers 200 only after it resolves, and 500 if it throws or rejects, so the service delivers
   * again. Deliveries can repeat: pass {@link WebhookHandlerOptions.dedupe}, keep your own order
   * state unique on `data.reference`, and confirm with `wallet.charges.verify(reference)` before
   * giving value.
   */
  onEvent: (event: WebhookEvent) => unknown;
  /**
   * Called for a delivery whose signature matched but whose payload breaks the documented shape
   * (an `amount` as a string, a missing `customer.handle`, a byte order mark), with the payload as far
   * as it could be read (the parsed JSON, else the text, else the bytes) and the
   * `WebhookVerificationError` (`invalid_payload`) naming what did not fit. The handler answers 200
   * once it resolves and 500 if it throws. Without it such a delivery is answered 500 and reported to
   * `onError`, so the service delivers it again and it is never dropped. Never a 400: the delivery is
   * genuine, and a sender may treat a 4xx as final. Not deduplicated: it may be called again for
   * each redelivery.
   *
   * @default undefined (answered 500 and reported to onError)
   */
  onInvalidEvent?: (payload: unknown, error: WebhookVerificationError) => unknown;
  /**
   * Told about every delivery that was not acknowledged: a refused signature or body (400), a wrong
   * method (405), a body too slow (408) or too large (413), a misconfiguration such as a body parsed
   * by `express.json()` first or a missing secret (500), a genuine payload that is not the
   * documented shape without `onInvalidEvent` (500), an error from `onEvent` or `onInvalidEvent`
   * (500), or a dedupe store that failed, lost its claim or found the event being handled elsewhere
   * (503). Errors it throws are ignored.
   *
   * @default logs a warning for 4xx and an error (with the stack) for 5xx, via `console`
   */
  onError?: (error: unknown, context: WebhookErrorContext) => void;
  /**
   * The largest body accepted, in bytes; a larger one is answered 413 without being buffered.
   *
   * @default 1_048_576 (1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * Milliseconds allowed to receive the whole body, from the moment the handler is called. A body
   * still incomplete then is answered 408 and the connection closed, so a sender dripping bytes
   * cannot hold the route open. `onEvent`'s own time is not counted. It covers the bodies the
   * handler reads itself: a body parser mounted before it (`express.raw()`) reads without it.
   *
   * @default 10_000
   */
  bodyTimeout?: number;
  /**
   * Runs `onEvent` once per event across every process sharing the store, however often and wherever
   * the service delivers it: see {@link memoryDedupeStore} and {@link redisDedupeStore}. A delivery
   * of an event already handled is answered 200 without `onEvent`; one whose event is being handled
   * elsewhere, or arriving while the store is unreachable, is answered 503 so it comes again later.
   *
   * @default undefined (every verified delivery runs `onEvent`)
   */
  dedupe?: WebhookDedupeStore;
}

/** Default of {@link WebhookHandlerOptions.maxBodyBytes}. */
const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** Default of {@link WebhookHandlerOptions.bodyTimeout}. */
const DEFAULT_BODY_TIMEOUT_MS = 10_000;

const RULES: Readonly<Record<keyof WebhookHandlerOptions, OptionRule>> = {
  // Checked after the others by checkSecrets, which throws missing_secret as the verifiers do.
  secret: () => undefined,
  onEvent: ofType('function'),
  onInvalidEvent: ofType('function'),
  onError: ofType('function'),
  maxBodyBytes: wholeNumber(1, MAX_INT32),
  bodyTimeout: wholeNumber(1, MAX_TIMER_MS),
  dedupe: (value) =>
    isStore(value)
      ? undefined
      : 'must be a store with claim, done and release (memoryDedupeStore, redisDedupeStore)',
};

/** The checked options, with defaults applied; `onError` never throws. */
export interface ResolvedHandlerOptions {
  /** As given, or the error every delivery is answered with while the secret is missing. */
  secret: WebhookSecret | WebhookVerificationError;
  /** As given. */
  onEvent: (event: WebhookEvent) => unknown;
  /** As given. */
  onInvalidEvent: ((payload: unknown, error: WebhookVerificationError) => unknown) | undefined;
  /** The merchant's hook or the default logger, wrapped so it cannot throw. */
  onError: (error: unknown, context: WebhookErrorContext) => void;
  /** The limit in bytes. */
  maxBodyBytes: number;
  /** The body deadline in ms. */
  bodyTimeout: number;
  /** The store, if any. */
  dedupe: WebhookDedupeStore | undefined;
}

function defaultOnError(error: unknown, { status }: WebhookErrorContext): void {
  // A duplicate held by another delivery is routine under concurrent redeliveries: a warning.
  const routine = (error as { code?: unknown } | null)?.code === 'webhook_event_in_progress';
  if ((status >= 500 || status === 200) && !routine) {
    console.error(`[@wallet/node] webhook delivery answered ${status}:`, error);
  } else console.warn(`[@wallet/node] webhook delivery answered ${status}: ${String(error)}`);
}

/**
 * A secret the environment did not give (an unset or empty variable), which must not break a build
 * that imports the route; anything else that is not a secret was given wrong, and throws at once.
 */
function isMissing(secret: unknown): boolean {
  const unset = (value: unknown): boolean => value === undefined || value === null || value === '';
  // [process.env.NEW_SECRET, process.env.OLD_SECRET] during a rotation, in a build with neither set.
  return unset(secret) || (Array.isArray(secret) && secret.length > 0 && secret.every(unset));
}

function isStore(value: unknown): value is WebhookDedupeStore {
  const store = value as Partial<Record<keyof WebhookDedupeStore, unknown>> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.claim === 'function' &&
    typeof store.done === 'function' &&
    typeof store.release === 'function'
  );
}

/**
 * Checks the options at creation. A missing or empty secret throws `WebhookVerificationError`
 * (`missing_secret`), as the verifiers do; every other problem, all at once, a `ValidationError`.
 */
export function resolveHandlerOptions(
  options: WebhookHandlerOptions,
  caller: string,
): ResolvedHandlerOptions {
  const issues: ValidationIssue[] =
    options === undefined
      ? [{ path: '', message: 'must be an object with secret and onEvent, not undefined' }]
      : checkOptions(options, RULES, '', `an option of ${caller}`);
  const isObject = typeof options === 'object' && options !== null && !Array.isArray(options);
  if (isObject && options.onEvent === undefined) {
    issues.push({ path: 'onEvent', message: 'is required: the function that handles each verified event' });
  }
  const missing = isObject && isMissing(options.secret);
  if (issues.length > 0) {
    // Listed with the rest when there is a rest, so one run shows every problem.
    if (isObject && !missing && secretsOf(options.secret) === undefined) {
      issues.push({ path: 'secret', message: 'must be a non-empty string, or a non-empty array of them' });
    }
  }
  throwIssues(`${caller} options`, issues);
  if (!missing) checkSecrets(options.secret);
  const report = options.onError ?? defaultOnError;
  return {
    secret: missing ? missingSecretError() : (options.secret as WebhookSecret),
    onEvent: options.onEvent,
    onInvalidEvent: options.onInvalidEvent,
    onError: (error, context) => {
      try {
        report(error, context);
      } catch {
        // A failing logger must not turn an answer into a crash.
      }
    },
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    bodyTimeout: options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT_MS,
    dedupe: options.dedupe,
  };
}
