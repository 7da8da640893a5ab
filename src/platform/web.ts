/**
 * Fetch runtimes (Cloudflare Workers, Vercel and Next.js Edge, Netlify Edge): the runtime's
 * `fetch`, Web Crypto, and no `node:` import at all. `process.getBuiltinModule` is never touched:
 * Next.js Edge defines it as a function that throws.
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
  // Next.js Edge and Netlify expose process.env; a Worker gets its bindings through its handler,
  // so there the options must be passed.
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
