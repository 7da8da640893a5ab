/**
 * Synchronous verification with `node:crypto`: the fastest path on Node, used by the Node handler.
 */
import type { RawWebhookBody, WebhookEvent, WebhookSecret, WebhookSignatureHeader } from './types.js';
import { hmacKey, nodeCrypto } from './node-crypto.js';
import { parseEvent } from './payload.js';
import { bodyBytes, checkSecrets, mismatchError, signatureHex } from './signature.js';

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
 *   that order). `invalid_payload` comes only after the signature matched: the delivery is genuine
 *   but its payload is not the documented shape (an amount as a string, a missing
 *   `customer.handle`). Do not answer it 4xx like a forgery, which the service may treat as final:
 *   answer 5xx so it is delivered again, or record it for a person to look at.
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
 *     if (isWebhookVerificationError(error)) return void res.status(400).end();
 *     throw error;
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

/**
 * The signature half of {@link verifyWebhook}: the body's bytes once a secret's signature matched.
 * The handlers call it apart from the parse, so a genuine body that does not fit the documented
 * shape is known to be genuine by where it failed, not by an error's reason.
 */
export function verifySignature(
  rawBody: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
): Uint8Array {
  const secrets = checkSecrets(secret);
  const body = bodyBytes(rawBody);
  const hex = signatureHex(signature);
  const crypto = nodeCrypto('verifyWebhook');
  const given = Buffer.from(hex, 'hex');
  let matched = false;
  // Every secret is tried, without stopping at a match, so timing does not tell which one matched.
  for (const key of secrets) {
    const expected = crypto.createHmac('sha512', hmacKey(crypto, key)).update(body).digest();
    if (crypto.timingSafeEqual(expected, given)) matched = true;
  }
  if (!matched) throw mismatchError(secrets.length);
  return body;
}
