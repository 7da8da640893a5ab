/**
 * Browsers: the SDK holds a secret key (and webhook secrets), which must never be shipped to a
 * browser, so this build's client and webhook functions refuse to run, saying why and what to do.
 */
import type { Platform } from './types.js';

export const platform: Platform = {
  runtime: 'browser',
  env: () => ({}),
  createAgent: undefined,
  realSetImmediate: undefined,
  diagnostics: () => undefined,
  nodeCrypto: () => undefined,
  subtle: () => undefined,
  zlib: () => undefined,
  refusal:
    '@wallet/node was bundled for a browser. It holds your secret key (and webhook secrets), which must ' +
    'never reach a browser: anyone could read them and move money. Call the Wallet API from your server ' +
    '(Node, Bun, Deno, an edge function or a worker) and let the browser talk to your server.',
};
