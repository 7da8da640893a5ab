/**
 * Fetch runtimes (Workers, Vercel/Next.js Edge, Netlify Edge): `fetch`, Web Crypto, no `node:` import,
 * and never `process.getBuiltinModule`, which Next.js Edge defines as a function that throws.
 */
import type { Platform, SubtleCrypto } from './types.js';

interface WebGlobals {
  process?: { env?: Record<string, string | undefined> };
  navigator?: { userAgent?: string };
  crypto?: { subtle?: SubtleCrypto };
}
const host = globalThis as WebGlobals;

/** The parts every Fetch runtime shares; `bun-deno.ts` adds `node:crypto` to them. */
export const webPlatform: Platform = {
  runtime: host.navigator?.userAgent?.slice(0, 64) || 'runtime/unknown',
  // A Worker has no process.env (its bindings come through its handler): options must be passed.
  env: () => host.process?.env ?? {},
  unsetHint: (variable, option) =>
    host.process?.env === undefined
      ? `this runtime has no process.env: a Worker's variables are bindings on its handler's env, so pass ${option}: env.${variable} to new Wallet() inside the handler`
      : undefined,
  createAgent: undefined,
  realSetImmediate: undefined,
  diagnostics: () => undefined,
  nodeCrypto: () => undefined,
  subtle: () => host.crypto?.subtle,
  zlib: () => undefined,
  refusal: undefined,
};

export const platform: Platform = webPlatform;
