/** The Fetch-style handler (Web APIs only) and the `node:http`/Express one, each reading its body in bounds. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { BoundedBody, readBounded, type ChunkSource } from '../core/body.js';
import { isPlainObject } from '../internal/values.js';
import { bodyTimeoutError, createDeliver, tooLargeError, type WebhookHandlerOptions } from './delivery.js';
import { WEBHOOK_SIGNATURE_HEADER } from './signature.js';
import { verifySignature, verifySignatureAsync } from './verify.js';

/** A Fetch-style request handler, as Next.js App Router, Hono, Bun and Deno take. */
export type FetchWebhookHandler = (request: Request) => Promise<Response>;

// One shared instance, compared by identity: it only ever means "the deadline passed".
const EXPIRED = new Error('The webhook body deadline passed.');

/** Reads a Fetch `Request`'s body. */
async function readRequestBody(request: Request, maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length') ?? undefined;
  if (request.body === null) {
    if (new BoundedBody(maxBytes).fits(declared)) return new Uint8Array(0);
    throw tooLargeError(maxBytes);
  }
  const reader = request.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(EXPIRED), timeoutMs);
  });
  try {
    const next: ChunkSource = () => Promise.race([reader.read(), expired]);
    const body = await readBounded(next, cancel, declared, maxBytes);
    if (body === undefined) throw tooLargeError(maxBytes);
    return body.bytes();
  } catch (error) {
    if (error !== EXPIRED) throw error;
    cancel();
    throw bodyTimeoutError(timeoutMs);
  } finally {
    clearTimeout(timer);
  }
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
  const deliver = createDeliver(options, 'createWebhookHandler', verifySignatureAsync);
  return async (request: Request): Promise<Response> => {
    const answer = await deliver(
      request.method,
      // A body already read, or held by another reader (a tee, a pipe), is gone: null, refused as parsed.
      (max, ms) =>
        request.bodyUsed || request.body?.locked === true
          ? Promise.resolve(null)
          : readRequestBody(request, max, ms),
      request.headers.get(WEBHOOK_SIGNATURE_HEADER),
    );
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
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

/** The header as a list when it came more than once (a joined value is split by the verifiers). */
function signatureHeader(req: IncomingMessage): string | string[] | undefined {
  const distinct = (req as Partial<Pick<IncomingMessage, 'headersDistinct'>>).headersDistinct;
  const values = distinct?.[WEBHOOK_SIGNATURE_HEADER];
  if (values !== undefined) return values.length === 1 ? values[0] : values;
  return req.headers[WEBHOOK_SIGNATURE_HEADER];
}

/** What a body parser left on the request, or undefined when the request's own body is still unread. */
function leftBody(req: IncomingMessage & { body?: unknown }): unknown {
  const { body } = req;
  // Express 4's parsers (body-parser 1.x), and many middlewares, set `req.body = req.body || {}` on a
  // request they do not parse, without reading it: that empty object is no parsed body.
  const placeholder = isPlainObject(body) && Object.keys(body).length === 0;
  return placeholder && !req.readableEnded && req.readableDidRead === false ? undefined : body;
}

/** Reads a `node:http` request's body. Rejects also when the request errors or closes before its end. */
function readNodeBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
  const body = new BoundedBody(maxBytes);
  if (!body.fits(req.headers['content-length'])) {
    req.resume();
    return Promise.reject(tooLargeError(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onClose);
    };
    const refuse = (error: Error): void => {
      settle();
      // The rest is read and dropped, so the answer can be written; the answer closes the connection.
      req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer | string): void => {
      if (!body.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) refuse(tooLargeError(maxBytes));
    };
    const onEnd = (): void => {
      settle();
      resolve(body.bytes());
    };
    const onFailure = (error: unknown): void => {
      settle();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onClose = (): void => onFailure(new Error('The request closed before its body was complete.'));
    const timer = setTimeout(() => refuse(bodyTimeoutError(timeoutMs)), timeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onClose);
  });
}

/**
 * Creates a webhook endpoint for `node:http` and Express, answering as {@link createWebhookHandler}
 * does. It takes the raw body from `req.body` when `express.raw()` (or `express.text()`) left a
 * Buffer or string there, else reads it from the request. A body that `express.json()` (or any
 * parser) already turned into an object has lost the signed bytes: answered 500 with reason
 * `raw_body_required` (a setup mistake, not a forgery: the service delivers again once it is fixed),
 * and a `WebhookVerificationError` saying how to fix it goes to `onError` (logged by default).
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
  const deliver = createDeliver(options, 'createNodeWebhookHandler', verifySignature);
  return async (req, res): Promise<void> => {
    const answer = await deliver(
      req.method,
      // What a body parser left, else the request's own body; consumed and left nothing, or partly
      // read by another reader still at it (its chunks are gone, as a locked Fetch body): null.
      (max, ms) => {
        const left = leftBody(req);
        return left !== undefined || req.readableEnded || req.readableDidRead === true
          ? Promise.resolve(left ?? null)
          : readNodeBody(req, max, ms);
      },
      // null, as Fetch's headers.get() gives: the capitalized-lookup hint is for verifyWebhook's callers.
      signatureHeader(req) ?? null,
    );
    if (res.headersSent) return;
    res.statusCode = answer.status;
    res.setHeader('content-type', 'application/json');
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    res.end(JSON.stringify(answer.body));
  };
}
