/**
 * `node:crypto`, from the platform when first needed rather than imported, so the webhooks entry
 * also loads on edge runtimes that have only Web Crypto (Next.js edge routes, workers). There only
 * the async verifier and the Fetch handler work, and the sync functions say so.
 */
import type * as NodeCryptoModule from 'node:crypto';

import { WalletError } from '../errors/base.js';
import { platform, type NodeCrypto } from '../platform/index.js';

type KeyObject = NodeCryptoModule.KeyObject;

let cached: NodeCrypto | undefined;

/** `node:crypto`, or a clear error on a runtime without it. */
export function nodeCrypto(caller: string): NodeCrypto {
  if (cached) return cached;
  const mod = platform.nodeCrypto();
  if (!mod) {
    throw new WalletError(
      `${caller} needs node:crypto, which this runtime does not provide. Use verifyWebhookAsync or ` +
        'createWebhookHandler, which use Web Crypto.',
      'node_crypto_unavailable',
    );
  }
  cached = mod;
  return mod;
}

// Secrets are few (one, two during a rotation); the bound only guards against a caller passing a
// fresh secret per call. A KeyObject spares createHmac re-reading the string key on every call.
const MAX_KEYS = 16;
const keys = new Map<string, KeyObject>();

/** The HMAC key for `secret`, made once. */
export function hmacKey(crypto: NodeCrypto, secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = crypto.createSecretKey(secret, 'utf8');
    keys.set(secret, key);
  }
  return key;
}
