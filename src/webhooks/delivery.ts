// One delivery, from request to answer, for both handlers: 200 only once the merchant's callback
// succeeded, 400 for a delivery that cannot be trusted, 5xx for anything that can be fixed.
import { MAX_BODY_BYTES } from '../core/body.js';
import {
  MAX_INT32,
  MAX_TIMER_MS,
  checkOptions,
  ofType,
  readOptions,
  throwIssues,
  wholeNumber,
} from '../core/options.js';
import { WalletError, type ValidationIssue } from '../errors/base.js';
import { callQuietly } from '../internal/values.js';
import { isWebhookVerificationError, type WebhookVerificationError } from '../errors/webhook.js';
import { runOnce } from './dedupe/run-once.js';
import type { WebhookDedupeStore } from './dedupe/store.js';
import {
  checkSecrets,
  isByteArray,
  missingSecretError,
  parsedBodyError,
  readEvent,
  paddedSecretError,
  secretsOf,
} from './signature.js';
import type { WebhookEvent, WebhookSecret, WebhookSignatureHeader } from './types.js';
import type { verifySignature, verifySignatureAsync } from './verify.js';

/** Facts about a delivery that was not acknowledged, for {@link WebhookHandlerOptions.onError}. */
export interface WebhookErrorContext {
  /**
   * The status answered: 400, 405, 408, 413, 500 or 503; or 200 when `onEvent` succeeded but the
   * dedupe store could not record it (the event may run again once its claim expires).
   */
  status: number;
}

/** Options of {@link createWebhookHandler} and {@link createNodeWebhookHandler}. */
export interface WebhookHandlerOptions {
  /**
   * Your webhook secret, or several during a rotation (any may match). A malformed one (an empty
   * array, a number, an empty entry, whitespace or quotes at its ends) throws at creation. A missing one (`undefined` or `''`, as in a
   * `next build` without variables) does not: each delivery is answered 500 and reported to
   * `onError` naming the missing secret, so the service delivers again once it is set.
   */
  secret: WebhookSecret | undefined;
  /**
   * Called once per verified delivery; its value is ignored. Answered 200 once it resolves, 500 if it
   * throws or rejects (so the service delivers again). Deliveries repeat: pass `dedupe`, keep your
   * order state unique on `data.reference`, and confirm with `wallet.charges.verify(reference)` before
   * giving value.
   */
  onEvent: (event: WebhookEvent) => unknown;
  /**
   * Called for a genuine delivery whose payload breaks the documented shape (an `amount` as a string,
   * a missing `customer.handle`, a byte order mark), with the payload as far as it could be read (the
   * JSON, else the text, else the bytes) and the `invalid_payload` `WebhookVerificationError` naming
   * what did not fit. Answered 200 once it resolves, 500 if it throws. Without it such a delivery is
   * answered 500 and reported to `onError`, so it comes again and is never dropped; never 400, which
   * a sender may treat as final. Not deduplicated: each redelivery may call it again.
   *
   * @default undefined (answered 500 and reported to onError)
   */
  onInvalidEvent?: (payload: unknown, error: WebhookVerificationError) => unknown;
  /**
   * Told of every delivery not acknowledged: a refused signature or body (400), a wrong method (405),
   * a body too slow (408) or too large (413); a body parsed by `express.json()` first, a missing
   * secret, an invalid payload without `onInvalidEvent`, or an error from `onEvent` or
   * `onInvalidEvent` (500); a dedupe store that failed, lost its claim or found the event being
   * handled elsewhere (503). Errors it throws are ignored.
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
   * Milliseconds to receive the whole body from the handler's call (not counting `onEvent`); past it,
   * 408 and the connection closed, so a sender dripping bytes cannot hold the route. A body parser
   * mounted before the handler (`express.raw()`) reads without this limit.
   *
   * @default 10_000
   */
  bodyTimeout?: number;
  /**
   * Runs `onEvent` once per event across every process sharing the store ({@link memoryDedupeStore},
   * {@link redisDedupeStore}). An event already handled is answered 200 without `onEvent`; one being
   * handled elsewhere, or while the store is unreachable, 503 so it comes again later.
   *
   * @default undefined (every verified delivery runs `onEvent`)
   */
  dedupe?: WebhookDedupeStore;
}

const RULES = {
  // Checked after the others by checkSecrets, which throws missing_secret as the verifiers do.
  secret: () => undefined,
  onEvent: ofType('function'),
  onInvalidEvent: ofType('function'),
  onError: ofType('function'),
  maxBodyBytes: wholeNumber(1, MAX_INT32),
  bodyTimeout: wholeNumber(1, MAX_TIMER_MS),
  dedupe: (value: unknown) => {
    const store = value as Partial<Record<keyof WebhookDedupeStore, unknown>> | null;
    const ok =
      typeof store === 'object' &&
      store !== null &&
      [store.claim, store.done, store.release].every((f) => typeof f === 'function');
    return ok
      ? undefined
      : 'must be a store with claim, done and release (memoryDedupeStore, redisDedupeStore)';
  },
};

function defaultOnError(error: unknown, { status }: WebhookErrorContext): void {
  // A duplicate held by another delivery is routine under concurrent redeliveries: a warning.
  const routine = (error as { code?: unknown } | null)?.code === 'webhook_event_in_progress';
  if ((status >= 500 || status === 200) && !routine) {
    console.error(`[@wallet/node] webhook delivery answered ${status}:`, error);
  } else console.warn(`[@wallet/node] webhook delivery answered ${status}: ${String(error)}`);
}

/** An unset or empty variable (one, or all of a rotation's): it must not break a build importing the route. */
function isMissing(secret: unknown): boolean {
  const unset = (value: unknown): boolean => value === undefined || value === null || value === '';
  // Its entries, not every(): that visits each index of a huge sparse length (2^32 - 1), holes included.
  return unset(secret) || (Array.isArray(secret) && secret.length > 0 && Object.values(secret).every(unset));
}

/** A status and JSON body to answer with. */
export interface HandlerAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const refused = (status: number, headers?: Record<string, string>): HandlerAnswer => ({
  status,
  body: { received: false },
  ...(headers && { headers }),
});

const RECEIVED: HandlerAnswer = { status: 200, body: { received: true } };
/** No detail, so a forger learns nothing. */
const BAD_REQUEST = refused(400);
/** No detail: the message is the merchant's own. */
const FAILED = refused(500);

/** Thrown by a body read over {@link WebhookHandlerOptions.maxBodyBytes}. */
export const tooLargeError = (max: number): WalletError =>
  new WalletError(`The webhook body is larger than maxBodyBytes (${max}).`, 'webhook_body_too_large');

/** Thrown by a body read still incomplete after {@link WebhookHandlerOptions.bodyTimeout}. */
export const bodyTimeoutError = (ms: number): WalletError =>
  new WalletError(`The webhook body did not arrive within bodyTimeout (${ms} ms).`, 'webhook_body_timeout');

/** A misconfiguration (a parsed body, no secret) answers 500 so it comes again once fixed; anything else 400. */
function verificationFailure(error: unknown): HandlerAnswer {
  if (!isWebhookVerificationError(error)) return FAILED;
  if (error.reason !== 'raw_body_required' && error.reason !== 'missing_secret') return BAD_REQUEST;
  return { status: 500, body: { received: false, error: error.reason, message: error.message } };
}

/** A failed body read: too large, too slow, or an upload broken off (nothing to trust). */
function readFailure(error: unknown): HandlerAnswer {
  const code = error instanceof WalletError ? error.code : undefined;
  // The rest of the body is not read, so the connection is closed.
  if (code === 'webhook_body_too_large') return refused(413, { connection: 'close' });
  return code === 'webhook_body_timeout' ? refused(408, { connection: 'close' }) : BAD_REQUEST;
}

/** Answers one request from its method, a body reader (raw or parsed) and its signature; never rejects. */
export type Deliver = (
  method: string | undefined,
  readBody: (maxBytes: number, timeoutMs: number) => Promise<unknown>,
  signature: WebhookSignatureHeader,
) => Promise<HandlerAnswer>;

/** Checks the options (missing_secret as the verifiers throw it, the rest at once); returns the shared flow. */
export function createDeliver(
  given: WebhookHandlerOptions,
  caller: string,
  verify: typeof verifySignature | typeof verifySignatureAsync,
): Deliver {
  // A config class's getters too, read once: what is checked is what runs.
  const options = readOptions(given, RULES, `${caller} options`) as WebhookHandlerOptions;
  const issues: ValidationIssue[] =
    options === undefined
      ? [{ path: '', message: 'must be an object with secret and onEvent, not undefined' }]
      : checkOptions(options, RULES, '', `an option of ${caller}`);
  const isObject = typeof options === 'object' && options !== null && !Array.isArray(options);
  if (isObject && options.onEvent === undefined) {
    issues.push({ path: 'onEvent', message: 'is required: the function that handles each verified event' });
  }
  const missing = isObject && isMissing(options.secret);
  // Listed with the rest when there is a rest, so one run shows every problem.
  const secretIssue = issues.some((issue) => issue.path === 'secret');
  if (issues.length > 0 && isObject && !missing && !secretIssue && secretsOf(options.secret) === undefined) {
    issues.push({ path: 'secret', message: 'must be a non-empty string, or a non-empty array of them' });
  }
  throwIssues(`${caller} options`, issues);
  if (!missing) {
    const padded = paddedSecretError(checkSecrets(options.secret));
    if (padded) throw padded;
  }
  const { dedupe, maxBodyBytes = MAX_BODY_BYTES, bodyTimeout = 10_000 } = options;
  // A config class's methods run as its own (`this.orders` in onEvent), as its getters were read.
  // Reflect.apply, not f.bind: a function may have no bind (no prototype), its own, or a Proxy's guard.
  const own = <F extends (...args: never[]) => unknown>(f: F): F =>
    ((...args: Parameters<F>): unknown => Reflect.apply(f, given, args) as unknown) as F;
  const onEvent = own(options.onEvent);
  const onInvalidEvent = options.onInvalidEvent && own(options.onInvalidEvent);
  const secret = missing ? missingSecretError() : (options.secret as WebhookSecret);
  const report = options.onError ? own(options.onError) : defaultOnError;
  const onError = (error: unknown, context: WebhookErrorContext): void =>
    callQuietly(() => report(error, context));
  const fail = (answer: HandlerAnswer, error: unknown): HandlerAnswer => {
    onError(error, { status: answer.status });
    return answer;
  };
  const call = async (callback: () => unknown): Promise<HandlerAnswer> => {
    try {
      await callback();
      return RECEIVED;
    } catch (error) {
      return fail(FAILED, error);
    }
  };

  return async (method, readBody, signature) => {
    if (method !== 'POST') {
      return fail(
        refused(405, { allow: 'POST' }),
        new Error(`Method ${String(method)} is not allowed; deliveries are POST.`),
      );
    }
    let body: unknown;
    try {
      body = await readBody(maxBodyBytes, bodyTimeout);
    } catch (error) {
      return fail(readFailure(error), error);
    }
    let bytes: Uint8Array;
    try {
      if (typeof body !== 'string' && !isByteArray(body)) throw parsedBodyError(caller);
      if (secret instanceof Error) throw secret;
      bytes = await verify(body, signature, secret);
    } catch (error) {
      return fail(verificationFailure(error), error);
    }
    const read = readEvent(bytes);
    if (!read.ok) {
      // Genuine but unexpected: never the forgery's 400, which a sender may take as final.
      if (onInvalidEvent === undefined) return fail(FAILED, read.error);
      return call(() => onInvalidEvent(read.payload, read.error));
    }
    if (dedupe === undefined) return call(() => onEvent(read.event));
    // A 503 (never a 409) when held elsewhere: senders take a 5xx as "try again later", a 4xx maybe as final.
    const status = await runOnce(dedupe, read.event, bytes, onEvent, onError);
    return status === 200 ? RECEIVED : refused(status);
  };
}
