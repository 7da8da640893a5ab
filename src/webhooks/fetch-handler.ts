/**
 * The Fetch-style handler, for Next.js App Router, Hono, Bun, Deno and workers. Web APIs only, so
 * it runs where `node:crypto` does not.
 */
import type { HandlerAnswer } from './handler-common.js';
import {
  BAD_REQUEST,
  METHOD_NOT_ALLOWED,
  TIMED_OUT,
  TOO_LARGE,
  bodyTimeoutError,
  readRequestBody,
  settleDelivery,
  tooLargeError,
  verificationFailure,
} from './handler-common.js';
import { resolveHandlerOptions, type WebhookHandlerOptions } from './handler-options.js';
import { WEBHOOK_SIGNATURE_HEADER, parsedBodyError } from './signature.js';
import { verifySignatureAsync } from './verify.js';

/** A Fetch-style request handler, as Next.js App Router, Hono, Bun and Deno take. */
export type FetchWebhookHandler = (request: Request) => Promise<Response>;

function respond(answer: HandlerAnswer): Response {
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json', ...answer.headers },
  });
}

/**
 * Creates a Fetch-style webhook endpoint: it reads the raw body, verifies it with Web Crypto, calls
 * `onEvent`, and answers 200 `{"received":true}` once `onEvent` resolved; 400 with no detail for a
 * bad signature or body; 500 when `onEvent` throws (so the service delivers again) or when the body
 * was already read by something else; 405 for a method other than POST; 408 when the body is not
 * complete within `bodyTimeout`; 413 over `maxBodyBytes`; 503 when a `dedupe` store cannot guard the
 * event (held by another delivery, or unreachable), so it comes again.
 *
 * @param options - see {@link WebhookHandlerOptions}.
 * @returns `(request: Request) => Promise<Response>`; it never rejects.
 * @throws WebhookVerificationError with reason `missing_secret` at creation when the secret is empty.
 * @throws ValidationError at creation for any other bad option (all of them at once).
 *
 * @example
 * ```ts
 * // app/api/webhooks/wallet/route.ts (Next.js App Router)
 * import { createWebhookHandler } from '@wallet/node/webhooks';
 *
 * export const POST = createWebhookHandler({
 *   secret: process.env.WALLET_WEBHOOK_SECRET!,
 *   async onEvent(event) {
 *     if (event.event === 'charge.success') await markPaid(event.data.reference, event.data.amount);
 *   },
 * });
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): FetchWebhookHandler {
  const resolved = resolveHandlerOptions(options, 'createWebhookHandler');
  const { onError, maxBodyBytes, bodyTimeout } = resolved;
  const limits = { maxBytes: maxBodyBytes, timeoutMs: bodyTimeout };
  const fail = (answer: HandlerAnswer, error: unknown): Response => {
    onError(error, { status: answer.status });
    return respond(answer);
  };
  return async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') {
      const error = new Error(`Method ${request.method} is not allowed; deliveries are POST.`);
      return fail(METHOD_NOT_ALLOWED, error);
    }
    if (request.bodyUsed) {
      const error = parsedBodyError('createWebhookHandler');
      return fail(verificationFailure(error), error);
    }
    let body;
    try {
      body = await readRequestBody(request, limits);
    } catch (error) {
      // The sender broke off the upload: nothing to trust, and nothing the merchant can fix.
      return fail(BAD_REQUEST, error);
    }
    if (body === 'too_large') return fail(TOO_LARGE, tooLargeError(maxBodyBytes));
    if (body === 'timeout') return fail(TIMED_OUT, bodyTimeoutError(bodyTimeout));
    const raw = body;
    const signature = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
    return respond(await settleDelivery(resolved, (secret) => verifySignatureAsync(raw, signature, secret)));
  };
}
