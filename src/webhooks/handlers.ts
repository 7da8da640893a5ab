/**
 * The two handlers. The Fetch-style one, for Next.js App Router, Hono, Bun, Deno and workers: Web
 * APIs only, so it runs where `node:crypto` does not. The one for `node:http` and Express: it reads
 * the raw body itself, or takes the Buffer that `express.raw()` left, and explains the fix when
 * `express.json()` parsed the body first.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  BAD_REQUEST,
  METHOD_NOT_ALLOWED,
  TIMED_OUT,
  TOO_LARGE,
  bodyTimeoutError,
  readNodeBody,
  readRequestBody,
  settleDelivery,
  tooLargeError,
  verificationFailure,
  type HandlerAnswer,
} from './handler-common.js';
import { resolveHandlerOptions, type WebhookHandlerOptions } from './handler-options.js';
import { WEBHOOK_SIGNATURE_HEADER, isByteArray, parsedBodyError } from './signature.js';
import { verifySignature, verifySignatureAsync } from './verify.js';

/** A Fetch-style request handler, as Next.js App Router, Hono, Bun and Deno take. */
export type FetchWebhookHandler = (request: Request) => Promise<Response>;

function response(answer: HandlerAnswer): Response {
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
    return response(answer);
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
    return response(await settleDelivery(resolved, (secret) => verifySignatureAsync(raw, signature, secret)));
  };
}

/**
 * A `node:http` request listener that is also an Express handler. `body` is what a body parser left
 * on the request, if any. The promise never rejects: every outcome is answered.
 */
export type NodeWebhookHandler = (
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
) => Promise<void>;

/**
 * The signature header as the list it is when it came more than once: Node joins repeated values
 * into one string (`"sig, sig"`), which would fail the exact-form check; `headersDistinct` keeps them
 * apart. Objects that stand in for a request (test tools, frameworks' raw requests) may lack it: a
 * hex signature holds no comma, so the joined form is split instead.
 */
function signatureHeader(req: IncomingMessage): string | string[] | undefined {
  const distinct = (req as Partial<Pick<IncomingMessage, 'headersDistinct'>>).headersDistinct;
  const values = distinct?.[WEBHOOK_SIGNATURE_HEADER];
  if (values !== undefined) return values.length === 1 ? values[0] : values;
  const joined = req.headers[WEBHOOK_SIGNATURE_HEADER];
  return typeof joined === 'string' && joined.includes(',') ? joined.split(',') : joined;
}

function respond(res: ServerResponse, answer: HandlerAnswer): void {
  if (res.headersSent) return;
  res.statusCode = answer.status;
  res.setHeader('content-type', 'application/json');
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.end(JSON.stringify(answer.body));
}

/**
 * Creates a webhook endpoint for `node:http` and Express. It takes the raw body from `req.body` when
 * `express.raw()` (or `express.text()`) left a Buffer or string there, and otherwise reads it from the
 * request itself. It answers 200 `{"received":true}` once `onEvent` resolved; 400 with no detail for a
 * bad signature or body; 500 when `onEvent` throws, so the service delivers again; 405 for a method
 * other than POST; 408 when the body is not complete within `bodyTimeout`; 413 over `maxBodyBytes`;
 * 503 when a `dedupe` store cannot guard the event (held by another delivery, or unreachable).
 *
 * When `express.json()` (or any parser) already turned the body into an object, the signed bytes are
 * gone: it answers 500 with reason `raw_body_required` and passes a `WebhookVerificationError` saying
 * how to fix it to `onError` (which logs it by default). A 500, not a 400: it is a setup mistake, not a
 * forgery, and the service delivers again once it is fixed.
 *
 * @param options - see {@link WebhookHandlerOptions}.
 * @returns `(req, res) => Promise<void>`, a request listener and an Express handler; it never rejects.
 * @throws WebhookVerificationError with reason `missing_secret` at creation when the secret is empty.
 * @throws ValidationError at creation for any other bad option (all of them at once).
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createNodeWebhookHandler } from '@wallet/node/webhooks';
 *
 * const app = express();
 * // Before express.json(), so this route gets the raw bytes that were signed.
 * app.post(
 *   '/webhooks/wallet',
 *   express.raw({ type: 'application/json' }),
 *   createNodeWebhookHandler({
 *     secret: process.env.WALLET_WEBHOOK_SECRET!,
 *     async onEvent(event) {
 *       if (event.event === 'charge.success') await markPaid(event.data.reference, event.data.amount);
 *     },
 *   }),
 * );
 * app.use(express.json());
 * ```
 *
 * With `node:http`: `http.createServer((req, res) => void handler(req, res))`.
 */
export function createNodeWebhookHandler(options: WebhookHandlerOptions): NodeWebhookHandler {
  const resolved = resolveHandlerOptions(options, 'createNodeWebhookHandler');
  const { onError, maxBodyBytes, bodyTimeout } = resolved;
  const limits = { maxBytes: maxBodyBytes, timeoutMs: bodyTimeout };
  const answer = (res: ServerResponse, reply: HandlerAnswer, error?: unknown): void => {
    if (error !== undefined) onError(error, { status: reply.status });
    respond(res, reply);
  };
  return async (req, res): Promise<void> => {
    if (req.method !== 'POST') {
      const error = new Error(`Method ${String(req.method)} is not allowed; deliveries are POST.`);
      return answer(res, METHOD_NOT_ALLOWED, error);
    }
    let body: unknown = req.body;
    if (body === undefined) {
      // Consumed by something that left no body behind: waiting for data would hang forever.
      if (req.readableEnded) body = null;
      else {
        try {
          body = await readNodeBody(req, limits);
        } catch (error) {
          return answer(res, BAD_REQUEST, error);
        }
        if (body === 'too_large') return answer(res, TOO_LARGE, tooLargeError(maxBodyBytes));
        if (body === 'timeout') return answer(res, TIMED_OUT, bodyTimeoutError(bodyTimeout));
      }
    }
    if (typeof body !== 'string' && !isByteArray(body)) {
      const error = parsedBodyError('createNodeWebhookHandler');
      return answer(res, verificationFailure(error), error);
    }
    const raw = body;
    const signature = signatureHeader(req);
    respond(res, await settleDelivery(resolved, (secret) => verifySignature(raw, signature, secret)));
  };
}
