/**
 * What the Fetch and Node handlers share: their options, and which answer each failure gets.
 * The answers are the service's contract: 200 only once the merchant's callback succeeded, 400 for
 * a delivery that cannot be trusted, 500 for anything the merchant can fix (so it comes again).
 */
import { WalletError, isWebhookVerificationError } from '../errors.js';
import type { WebhookEvent, WebhookSecret } from './types.js';
import { checkSecrets } from './signature.js';

/** Facts about a delivery that was not acknowledged, for {@link WebhookHandlerOptions.onError}. */
export interface WebhookErrorContext {
  /** The HTTP status the handler answered: 400, 405, 413 or 500. */
  status: number;
}

/** Options of {@link createWebhookHandler} and {@link createNodeWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** Your webhook secret, or several during a rotation (any may match). Checked at creation. */
  secret: WebhookSecret;
  /**
   * Called once per verified delivery; may return a promise (its value is ignored). The handler
   * answers 200 only after it resolves, and 500 if it throws or rejects, so the service delivers
   * again. Deliveries can repeat: deduplicate on `event` + `data.reference`, and confirm with
   * `wallet.charges.verify(reference)` before giving value.
   */
  onEvent: (event: WebhookEvent) => unknown;
  /**
   * Told about every delivery that was not acknowledged: a refused signature or body (400), a wrong
   * method (405), a body over {@link WebhookHandlerOptions.maxBodyBytes} (413), a misconfiguration
   * such as a body parsed by `express.json()` first (500), or an error from `onEvent` (500). Errors
   * it throws are ignored.
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
}

/** Default of {@link WebhookHandlerOptions.maxBodyBytes}. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** The checked options, with defaults applied; `onError` never throws. */
export interface ResolvedHandlerOptions {
  /** As given. */
  secret: WebhookSecret;
  /** As given. */
  onEvent: (event: WebhookEvent) => unknown;
  /** The merchant's hook or the default logger, wrapped so it cannot throw. */
  onError: (error: unknown, context: WebhookErrorContext) => void;
  /** The limit in bytes. */
  maxBodyBytes: number;
}

function defaultOnError(error: unknown, { status }: WebhookErrorContext): void {
  if (status >= 500) console.error(`[@wallet/node] webhook delivery answered ${status}:`, error);
  else console.warn(`[@wallet/node] webhook delivery answered ${status}: ${String(error)}`);
}

/** Checks the options once, at creation, so a missing secret fails at startup, not per delivery. */
export function resolveHandlerOptions(
  options: WebhookHandlerOptions,
  caller: string,
): ResolvedHandlerOptions {
  checkSecrets(options.secret);
  if (typeof options.onEvent !== 'function') throw new TypeError(`${caller}: onEvent must be a function.`);
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(max) || max <= 0) {
    throw new RangeError(`${caller}: maxBodyBytes must be a positive integer, got ${String(max)}.`);
  }
  const onError = options.onError ?? defaultOnError;
  return {
    secret: options.secret,
    onEvent: options.onEvent,
    onError: (error, context) => {
      try {
        onError(error, context);
      } catch {
        // A failing logger must not turn an answer into a crash.
      }
    },
    maxBodyBytes: max,
  };
}

/** A status and JSON body to answer with. */
export interface HandlerAnswer {
  /** HTTP status. */
  status: number;
  /** Sent as JSON. */
  body: Record<string, unknown>;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** Answer for a delivery that cannot be trusted; no detail, so a forger learns nothing. */
export const BAD_REQUEST: HandlerAnswer = { status: 400, body: { received: false } };

/** The answer once `onEvent` resolved. */
export const RECEIVED: HandlerAnswer = { status: 200, body: { received: true } };

/** Answer for a request that is not a POST. */
export const METHOD_NOT_ALLOWED: HandlerAnswer = {
  status: 405,
  body: { received: false },
  headers: { allow: 'POST' },
};

/** Raised when a body passes {@link WebhookHandlerOptions.maxBodyBytes}. */
export function tooLargeError(max: number): WalletError {
  return new WalletError(`The webhook body is larger than maxBodyBytes (${max}).`, 'webhook_body_too_large');
}

/** Answer for a body over the limit; the connection is closed since the rest is not read. */
export const TOO_LARGE: HandlerAnswer = {
  status: 413,
  body: { received: false },
  headers: { connection: 'close' },
};

/**
 * The answer to a failed verification. A misconfiguration (a pre-parsed body, no secret) is the
 * merchant's to fix: 500 with the reason, so the delivery comes again once fixed. Anything else
 * might be a forgery: 400 and no detail.
 */
export function verificationFailure(error: unknown): HandlerAnswer {
  if (isWebhookVerificationError(error)) {
    if (error.reason === 'raw_body_required' || error.reason === 'missing_secret') {
      return { status: 500, body: { received: false, error: error.reason, message: error.message } };
    }
    return BAD_REQUEST;
  }
  return { status: 500, body: { received: false } };
}

/** The answer when `onEvent` threw: no detail, since the message is the merchant's own. */
export const CALLBACK_FAILED: HandlerAnswer = { status: 500, body: { received: false } };

/**
 * The tail both handlers share once they hold the raw body: verify, hand the event to `onEvent`,
 * and pick the answer, telling `onError` about every delivery not acknowledged.
 */
export async function settleDelivery(
  options: ResolvedHandlerOptions,
  verify: () => WebhookEvent | Promise<WebhookEvent>,
): Promise<HandlerAnswer> {
  let event: WebhookEvent;
  try {
    event = await verify();
  } catch (error) {
    const answer = verificationFailure(error);
    options.onError(error, { status: answer.status });
    return answer;
  }
  try {
    await options.onEvent(event);
  } catch (error) {
    options.onError(error, { status: CALLBACK_FAILED.status });
    return CALLBACK_FAILED;
  }
  return RECEIVED;
}
