/**
 * The Fetch-style handler, for Next.js App Router, Hono, Bun, Deno and workers. Web APIs only, so
 * it runs where `node:crypto` does not.
 */
import type { HandlerAnswer, WebhookHandlerOptions } from './handler-common.js';
import {
  BAD_REQUEST,
  METHOD_NOT_ALLOWED,
  TOO_LARGE,
  resolveHandlerOptions,
  settleDelivery,
  tooLargeError,
  verificationFailure,
} from './handler-common.js';
import { WEBHOOK_SIGNATURE_HEADER, parsedBodyError } from './signature.js';
import { verifyWebhookAsync } from './verify-async.js';

/** A Fetch-style request handler, as Next.js App Router, Hono, Bun and Deno take. */
export type FetchWebhookHandler = (request: Request) => Promise<Response>;

function respond(answer: HandlerAnswer): Response {
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json', ...answer.headers },
  });
}

/** The body's bytes, or undefined once it passes `max`; stops reading there rather than buffering it. */
async function readBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > max) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // Typed by hand: the global ReadableStream's reader yields `any`.
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || value === undefined) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/**
 * Creates a Fetch-style webhook endpoint: it reads the raw body, verifies it with Web Crypto, calls
 * `onEvent`, and answers 200 `{"received":true}` once `onEvent` resolved; 400 with no detail for a
 * bad signature or body; 500 when `onEvent` throws (so the service delivers again) or when the body
 * was already read by something else; 405 for a method other than POST; 413 over `maxBodyBytes`.
 *
 * @param options - see {@link WebhookHandlerOptions}.
 * @returns `(request: Request) => Promise<Response>`; it never rejects.
 * @throws WebhookVerificationError with reason `missing_secret` at creation when the secret is empty.
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
  const { onError, maxBodyBytes } = resolved;
  const fail = (error: unknown): Response => {
    const answer = verificationFailure(error);
    onError(error, { status: answer.status });
    return respond(answer);
  };
  return async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') {
      onError(new Error(`Method ${request.method} is not allowed; deliveries are POST.`), { status: 405 });
      return respond(METHOD_NOT_ALLOWED);
    }
    if (request.bodyUsed) return fail(parsedBodyError('createWebhookHandler'));
    let body;
    try {
      body = await readBody(request, maxBodyBytes);
    } catch (error) {
      // The sender broke off the upload: nothing to trust, and nothing the merchant can fix.
      onError(error, { status: BAD_REQUEST.status });
      return respond(BAD_REQUEST);
    }
    if (body === undefined) {
      onError(tooLargeError(maxBodyBytes), { status: TOO_LARGE.status });
      return respond(TOO_LARGE);
    }
    const signature = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
    return respond(
      await settleDelivery(resolved, () => verifyWebhookAsync(body, signature, resolved.secret)),
    );
  };
}
