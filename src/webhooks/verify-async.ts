/**
 * Verification with Web Crypto, for runtimes without `node:crypto` (edge functions, workers). It
 * shares every check with {@link verifyWebhook}, so the two accept and refuse the same inputs.
 */
import type { webcrypto } from 'node:crypto';

import { WalletError } from '../errors/base.js';
import { platform } from '../platform/index.js';
import type { RawWebhookBody, WebhookEvent, WebhookSecret, WebhookSignatureHeader } from './types.js';
import { parseEvent } from './payload.js';
import { bodyBytes, checkSecrets, hexBytes, mismatchError, signatureHex } from './signature.js';

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

// As in the sync verifier: secrets are few, so each is imported once; the bound guards against a
// caller passing a fresh secret per call. The promise is kept, so concurrent first calls share it.
const MAX_KEYS = 16;
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();

function verifyKey(subtle: webcrypto.SubtleCrypto, secret: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-512' }, false, [
      'verify',
    ]);
    keys.set(secret, key);
    // A failed import is not kept: the next call tries again.
    key.catch(() => keys.delete(secret));
  }
  return key;
}

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
  const secrets = checkSecrets(secret);
  const body = bodyBytes(rawBody);
  const given = hexBytes(signatureHex(signature));
  const subtle = subtleCrypto();
  // subtle.verify compares in constant time; every secret is tried so timing does not tell which matched.
  const check = async (key: string): Promise<boolean> =>
    subtle.verify('HMAC', await verifyKey(subtle, key), given, body);
  const results = secrets.length === 1 ? [await check(secrets[0]!)] : await Promise.all(secrets.map(check));
  if (!results.includes(true)) throw mismatchError(secrets.length);
  return body;
}
