// Signing a delivery (for tests), and verifying one with `node:crypto` (sync) or Web Crypto (async),
// sharing every check. `node:crypto` is loaded on first need, so this entry also loads on edge runtimes.
import type { webcrypto } from 'node:crypto';

import { ValidationError, WalletError } from '../errors/base.js';
import { WebhookVerificationError } from '../errors/webhook.js';
import { describe } from '../internal/values.js';
import { platform, type NodeCrypto } from '../platform/index.js';
import type { RawWebhookBody, WebhookEvent, WebhookSecret, WebhookSignatureHeader } from './types.js';
import {
  bodyBytes,
  checkSecrets,
  decodeUtf8,
  hexBytes,
  isByteArray,
  mismatchError,
  notText,
  parseEvent,
  signatureHex,
} from './signature.js';

/** `node:crypto`, or a clear error on a runtime without it. */
export function nodeCrypto(caller: string): NodeCrypto {
  const mod = platform.nodeCrypto();
  if (!mod) {
    throw new WalletError(
      `${caller} needs node:crypto, which this runtime does not provide. Use verifyWebhookAsync or ` +
        'createWebhookHandler, which use Web Crypto.',
      'node_crypto_unavailable',
    );
  }
  return mod;
}

/**
 * Verifies a webhook delivery and returns its event. The signature is the hex HMAC-SHA512 of the
 * raw body; its form is checked first (128 hex digits, either case, surrounding whitespace
 * ignored), then it is compared in constant time. The body is parsed only once it matched.
 *
 * @param rawBody - the body exactly as received: a string, `Buffer`, `Uint8Array` or `ArrayBuffer`.
 *   Never `req.body` after `express.json()`: re-serialized JSON does not match the signature.
 * @param signature - the `X-Wallet-Signature` header, as `req.headers['x-wallet-signature']` or
 *   `request.headers.get('x-wallet-signature')` gives it.
 * @param secret - your webhook secret, or several during a rotation (any may match).
 * @returns the event; checking `event.event` narrows `event.data`. Unknown kinds are returned too.
 * @throws WebhookVerificationError with `reason` `missing_secret`, `raw_body_required`,
 *   `missing_signature`, `malformed_signature`, `signature_mismatch` or `invalid_payload` (checked in
 *   that order). `invalid_payload` means a genuine delivery whose payload is not the documented shape
 *   (an amount as a string, a missing `customer.handle`): answer it 5xx so it comes again, or record
 *   it for a person; never 4xx like a forgery, which the service may treat as final.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { verifyWebhook, isWebhookVerificationError } from '@wallet/node/webhooks';
 *
 * const app = express();
 * app.post('/webhooks/wallet', express.raw({ type: 'application/json' }), async (req, res) => {
 *   let event;
 *   try {
 *     event = verifyWebhook(req.body, req.headers['x-wallet-signature'], process.env.WALLET_WEBHOOK_SECRET!);
 *   } catch (error) {
 *     if (!isWebhookVerificationError(error)) throw error;
 *     // Genuine but of an unexpected shape, or a setup mistake: 500, so the service delivers it again.
 *     const retry = ['invalid_payload', 'missing_secret', 'raw_body_required'].includes(error.reason);
 *     return void res.status(retry ? 500 : 400).end();
 *   }
 *   if (event.event === 'charge.success') await fulfil(event.data.reference, event.data.amount);
 *   res.json({ received: true });
 * });
 * ```
 */
export function verifyWebhook(
  rawBody: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
): WebhookEvent {
  return parseEvent(verifySignature(rawBody, signature, secret));
}

/** The checks both verifiers make before comparing, in the order their errors are documented. */
function prepare(rawBody: RawWebhookBody, signature: WebhookSignatureHeader, secret: WebhookSecret) {
  const secrets = checkSecrets(secret);
  const body = bodyBytes(rawBody);
  return { secrets, body, hex: signatureHex(signature) };
}

// Each secret's key is made once: per call, a key costs verifyWebhook about 15% of its throughput
// and verifyWebhookAsync half (docs/performance.md). A failed import is not kept; bounded.
function keyCache<K>(make: (secret: string) => K): (secret: string) => K {
  const keys = new Map<string, K>();
  return (secret) => {
    let key = keys.get(secret);
    if (key === undefined) {
      if (keys.size >= 16) keys.clear();
      keys.set(secret, (key = make(secret)));
      if (key instanceof Promise) key.catch(() => keys.delete(secret));
    }
    return key;
  };
}

const hmacKey = keyCache((secret) => nodeCrypto('verifyWebhook').createSecretKey(secret, 'utf8'));

/** The signature half of {@link verifyWebhook}: the body's bytes once a secret's signature matched. */
export function verifySignature(
  rawBody: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
): Uint8Array {
  const { secrets, body, hex } = prepare(rawBody, signature, secret);
  const crypto = nodeCrypto('verifyWebhook');
  const given = Buffer.from(hex, 'hex');
  let matched = false;
  // Every secret is tried, without stopping at a match, so timing does not tell which one matched.
  for (const key of secrets) {
    if (crypto.timingSafeEqual(crypto.createHmac('sha512', hmacKey(key)).update(body).digest(), given))
      matched = true;
  }
  if (!matched) throw mismatchError(secrets);
  return body;
}

const encoder = new TextEncoder();

function subtleCrypto(): webcrypto.SubtleCrypto {
  const subtle = platform.subtle();
  if (!subtle) {
    throw new WalletError(
      'verifyWebhookAsync needs Web Crypto (globalThis.crypto.subtle), which this runtime does not provide. ' +
        'On Node, use verifyWebhook.',
      'web_crypto_unavailable',
    );
  }
  return subtle;
}

const verifyKey = keyCache((secret) =>
  subtleCrypto().importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-512' }, false, [
    'verify',
  ]),
);

/**
 * Verifies a webhook delivery with Web Crypto and resolves to its event. Same inputs, checks,
 * results and errors as {@link verifyWebhook}, for edge runtimes (Next.js edge routes, Cloudflare
 * Workers, Deno, Bun) where `node:crypto` may be missing.
 *
 * @param rawBody - the body exactly as received, for example `await request.text()`.
 * @param signature - the `X-Wallet-Signature` header, for example `request.headers.get('x-wallet-signature')`.
 * @param secret - your webhook secret, or several during a rotation (any may match).
 * @returns the event; checking `event.event` narrows `event.data`.
 * @throws WebhookVerificationError (as a rejection) with the same `reason` as {@link verifyWebhook}.
 *
 * @example
 * ```ts
 * import { verifyWebhookAsync } from '@wallet/node/webhooks';
 *
 * export default {
 *   async fetch(request: Request, env: { WALLET_WEBHOOK_SECRET: string }): Promise<Response> {
 *     const body = await request.text();
 *     const event = await verifyWebhookAsync(body, request.headers.get('x-wallet-signature'), env.WALLET_WEBHOOK_SECRET);
 *     if (event.event === 'charge.success') console.log('paid', event.data.reference);
 *     return Response.json({ received: true });
 *   },
 * };
 * ```
 */
export async function verifyWebhookAsync(
  rawBody: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
): Promise<WebhookEvent> {
  return parseEvent(await verifySignatureAsync(rawBody, signature, secret));
}

/** The signature half of {@link verifyWebhookAsync}: the body's bytes once a signature matched. */
export async function verifySignatureAsync(
  rawBody: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
): Promise<Uint8Array> {
  const { secrets, body, hex } = prepare(rawBody, signature, secret);
  const given = hexBytes(hex);
  const subtle = subtleCrypto();
  // subtle.verify compares in constant time; every secret is tried so timing does not tell which matched.
  const check = async (key: string): Promise<boolean> =>
    subtle.verify('HMAC', await verifyKey(key), given, body);
  const results = await Promise.all(secrets.map(check));
  if (!results.includes(true)) throw mismatchError(secrets);
  return body;
}

/** A signed delivery: send `body` as is, with `signature` in the `X-Wallet-Signature` header. */
export interface SignedWebhook {
  /** The exact body to send; the signature covers these bytes (UTF-8). */
  body: string;
  /** Lowercase hex of HMAC-SHA512 over `body`, 128 characters. */
  signature: string;
}

const refuse = (message: string): ValidationError =>
  new ValidationError('signWebhook payload', [{ path: 'payload', message }]);

function toBody(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  // An ArrayBuffer is bytes, as the verifiers take it: JSON.stringify would sign '{}' in its place.
  let bytes = payload;
  if (Object.prototype.toString.call(payload) === '[object ArrayBuffer]') {
    try {
      bytes = bodyBytes(payload as ArrayBuffer);
    } catch {
      throw refuse('is a detached ArrayBuffer (transferred), which holds no bytes');
    }
  }
  if (isByteArray(bytes)) {
    try {
      return decodeUtf8(bytes);
    } catch {
      throw refuse('bytes must be valid UTF-8');
    }
  }
  // Binary the verifiers refuse as a body: its JSON ('{}', '{"0":123}') is no body anyone meant.
  if (ArrayBuffer.isView(bytes) || Object.prototype.toString.call(bytes) === '[object SharedArrayBuffer]') {
    throw refuse(`is ${describe(bytes)}: pass the bytes as a Uint8Array (or Buffer) or an ArrayBuffer`);
  }
  let body: unknown;
  try {
    body = JSON.stringify(payload);
  } catch (error) {
    // A cycle, a BigInt or a throwing toJSON: say which, typed.
    throw refuse(`cannot be serialized to JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof body !== 'string') throw refuse('must be an object, a string or bytes (it gave no JSON)');
  return body;
}

/**
 * Signs a payload as the service signs a delivery: HMAC-SHA512 over the exact body, in hex.
 * For tests and local tools; a production server only verifies.
 *
 * @param payload - an event object (serialized with `JSON.stringify`), or a string or bytes (a
 *   `Uint8Array`, `Buffer` or `ArrayBuffer`) sent as they are (use this to test bodies with your own spacing).
 * @param secret - the webhook secret; must not be empty.
 * @returns the body to send and its `X-Wallet-Signature` value.
 * @throws WebhookVerificationError with reason `missing_secret` when `secret` is empty.
 * @throws ValidationError when the payload cannot be serialized, or bytes are not UTF-8, or are
 *   binary that the verifiers do not read as a body (a `DataView`, another typed array, a `SharedArrayBuffer`).
 *
 * @example
 * ```ts
 * import { signWebhook } from '@wallet/node/webhooks';
 *
 * const { body, signature } = signWebhook(
 *   { event: 'charge.success', data: { reference: 'order_1042', amount: 500_000, customer: { handle: '@ada' } } },
 *   process.env.WALLET_WEBHOOK_SECRET!,
 * );
 * await fetch('http://127.0.0.1:3000/webhooks/wallet', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', 'x-wallet-signature': signature },
 *   body,
 * });
 * ```
 */
export function signWebhook(payload: unknown, secret: string): SignedWebhook {
  // The browser build: refused as the verifiers refuse, not with advice to call them.
  if (platform.refusal) throw new WalletError(platform.refusal, 'browser_refused');
  if (typeof secret !== 'string' || secret.length === 0) {
    // Named as the verifiers name it: a Buffer is not empty, and a number is named by its type only.
    const given: unknown = secret;
    const what = given === undefined || given === null || given === '' ? 'empty' : notText(given);
    throw new WebhookVerificationError('missing_secret', `signWebhook: the webhook secret is ${what}.`);
  }
  const body = toBody(payload);
  const signature = nodeCrypto('signWebhook').createHmac('sha512', secret).update(body, 'utf8').digest('hex');
  return { body, signature };
}
