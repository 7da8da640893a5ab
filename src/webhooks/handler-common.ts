/**
 * What the Fetch and Node handlers share: which answer each outcome gets.
 * The answers are the service's contract: 200 only once the merchant's callback succeeded, 400 for
 * a delivery that cannot be trusted, 5xx for anything that can be fixed (so it comes again).
 * And how each reads its body: the handlers' side of the one bounded body reader (`core/body.ts`),
 * the same cap plus the deadline a webhook route needs because its sender, not the SDK, decides how
 * fast the body comes. A body over the limit is not buffered; a body still incomplete at the
 * deadline is abandoned. Either way nothing of it is trusted.
 */
import type { IncomingMessage } from 'node:http';
import { BoundedBody, readBounded } from '../core/body.js';
import { WalletError } from '../errors/base.js';
import { isWebhookVerificationError } from '../errors/base.js';
import { runOnce, type RunOutcome } from './dedupe/run-once.js';
import type { ResolvedHandlerOptions } from './handler-options.js';
import { readEvent } from './signature.js';
import type { WebhookSecret } from './types.js';

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
const RECEIVED: HandlerAnswer = { status: 200, body: { received: true } };

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
const CALLBACK_FAILED: HandlerAnswer = { status: 500, body: { received: false } };

/** Answer for a body still incomplete at the deadline; the connection is closed. */
export const TIMED_OUT: HandlerAnswer = {
  status: 408,
  body: { received: false },
  headers: { connection: 'close' },
};

/** Raised when a body is still incomplete after {@link WebhookHandlerOptions.bodyTimeout}. */
export function bodyTimeoutError(ms: number): WalletError {
  return new WalletError(
    `The webhook body did not arrive within bodyTimeout (${ms} ms).`,
    'webhook_body_timeout',
  );
}

/**
 * Answer when the dedupe store could not guard the event (busy elsewhere, or unreachable). 503, not
 * 409: webhook senders treat a 5xx as "try again later", while some take a 4xx as a final refusal
 * and would drop the event.
 */
const UNAVAILABLE: HandlerAnswer = { status: 503, body: { received: false } };

const ANSWERS: Record<RunOutcome, HandlerAnswer> = {
  handled: RECEIVED,
  already_done: RECEIVED,
  failed: CALLBACK_FAILED,
  busy: UNAVAILABLE,
  store_failed: UNAVAILABLE,
  lease_lost: UNAVAILABLE,
};

/**
 * The tail both handlers share once they hold the raw body: check the signature, read the event,
 * hand it to `onEvent` (through the dedupe store when there is one) or, when it is genuine but not
 * the documented shape, to `onInvalidEvent`, and pick the answer, telling `onError` about every
 * delivery not acknowledged. `checkSignature` resolves to the signed bytes: a failure there may be
 * a forgery; anything after it is known genuine by where it happened.
 */
export async function settleDelivery(
  options: ResolvedHandlerOptions,
  checkSignature: (secret: WebhookSecret) => Uint8Array | Promise<Uint8Array>,
): Promise<HandlerAnswer> {
  let bytes: Uint8Array;
  try {
    if (options.secret instanceof Error) throw options.secret;
    bytes = await checkSignature(options.secret);
  } catch (error) {
    const answer = verificationFailure(error);
    options.onError(error, { status: answer.status });
    return answer;
  }
  const read = readEvent(bytes);
  if (!read.ok) {
    // Genuine but unexpected: never the forgery's 400, which a sender may take as final.
    if (options.onInvalidEvent === undefined) {
      options.onError(read.error, { status: CALLBACK_FAILED.status });
      return CALLBACK_FAILED;
    }
    return call(options, () => options.onInvalidEvent?.(read.payload, read.error));
  }
  const { event } = read;
  if (options.dedupe !== undefined) {
    return ANSWERS[await runOnce(options.dedupe, event, bytes, options.onEvent, options.onError)];
  }
  return call(options, () => options.onEvent(event));
}

/** Runs a merchant's callback: 200 once it resolved, 500 (reported) when it threw. */
async function call(options: ResolvedHandlerOptions, callback: () => unknown): Promise<HandlerAnswer> {
  try {
    await callback();
  } catch (error) {
    options.onError(error, { status: CALLBACK_FAILED.status });
    return CALLBACK_FAILED;
  }
  return RECEIVED;
}

/** The bounds a body is read within. */
export interface BodyLimits {
  /** The largest body accepted, in bytes. */
  maxBytes: number;
  /** Milliseconds allowed for the whole body. */
  timeoutMs: number;
}

/** The body's bytes, or why there are none: too large, or too slow. */
export type BodyRead = Uint8Array | 'too_large' | 'timeout';

// One shared instance, compared by identity: it only ever means "the deadline passed".
const EXPIRED = new Error('The webhook body deadline passed.');
type Chunk = { done?: boolean; value?: Uint8Array | undefined };

/** Reads a Fetch `Request`'s body. Rejects when the sender broke off the upload. */
export async function readRequestBody(request: Request, limits: BodyLimits): Promise<BodyRead> {
  const declared = request.headers.get('content-length') ?? undefined;
  if (request.body === null) {
    return new BoundedBody(limits.maxBytes).fits(declared) ? new Uint8Array(0) : 'too_large';
  }
  const reader = request.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(EXPIRED), limits.timeoutMs);
  });
  try {
    // Typed by hand: the global ReadableStream's reader yields `any`.
    const next = (): Promise<Chunk> => Promise.race([reader.read() as Promise<Chunk>, expired]);
    const body = await readBounded(next, cancel, declared, limits.maxBytes);
    return body === undefined ? 'too_large' : body.bytes();
  } catch (error) {
    if (error !== EXPIRED) throw error;
    cancel();
    return 'timeout';
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a `node:http` request's body. Rejects when the request errors or closes before its end. */
export function readNodeBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  const body = new BoundedBody(limits.maxBytes);
  if (!body.fits(req.headers['content-length'])) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onClose);
    };
    const give = (result: BodyRead): void => {
      settle();
      // What is left is read and dropped, so the answer can be written; the handler closes the connection.
      if (typeof result === 'string') req.resume();
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      if (!body.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) give('too_large');
    };
    const onEnd = (): void => give(body.bytes());
    const onFailure = (error: unknown): void => {
      settle();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onClose = (): void => onFailure(new Error('The request closed before its body was complete.'));
    const timer = setTimeout(() => give('timeout'), limits.timeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onClose);
  });
}
