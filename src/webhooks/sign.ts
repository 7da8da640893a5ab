/** Signing deliveries as the service does, for merchants' tests and the sandbox. */
import { ValidationError } from '../errors/base.js';
import { WebhookVerificationError } from '../errors/webhook.js';
import { nodeCrypto } from './verify.js';
import { decodeUtf8, isByteArray } from './signature.js';

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
  if (isByteArray(payload)) {
    try {
      return decodeUtf8(payload);
    } catch {
      throw refuse('bytes must be valid UTF-8');
    }
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
 * @param payload - an event object (serialized with `JSON.stringify`), or a string or bytes sent
 *   as they are (use this to test bodies with your own spacing).
 * @param secret - the webhook secret; must not be empty.
 * @returns the body to send and its `X-Wallet-Signature` value.
 * @throws WebhookVerificationError with reason `missing_secret` when `secret` is empty.
 * @throws ValidationError when the payload cannot be serialized, or bytes are not UTF-8.
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
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new WebhookVerificationError('missing_secret', 'signWebhook: the webhook secret is empty.');
  }
  const body = toBody(payload);
  const signature = nodeCrypto('signWebhook').createHmac('sha512', secret).update(body, 'utf8').digest('hex');
  return { body, signature };
}
