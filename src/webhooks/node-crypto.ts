/**
 * `node:crypto`, loaded when first needed rather than imported, so the webhooks entry also loads on
 * edge runtimes that have only Web Crypto (Next.js edge routes, workers). There only the async
 * verifier and the Fetch handler work, and the sync functions say so.
 */
import type * as NodeCryptoModule from 'node:crypto';

import { WalletError } from '../errors.js';

type NodeCrypto = typeof NodeCryptoModule;

let cached: NodeCrypto | undefined;

/** `node:crypto`, or a clear error on a runtime without it. */
export function nodeCrypto(caller: string): NodeCrypto {
  if (cached) return cached;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
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
