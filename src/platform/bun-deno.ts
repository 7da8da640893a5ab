/**
 * Bun and Deno: a Fetch runtime with `node:crypto`, for the synchronous webhook functions. Deno
 * without `--allow-env` throws on a read of `process.env`, so only allowed variables are read.
 */
import * as crypto from 'node:crypto';
import type { Platform } from './types.js';
import { webPlatform } from './web.js';

interface DenoPermissions {
  permissions: { querySync(query: { name: 'env'; variable: string }): { state: string } };
}
const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
const readable = (variable: string): boolean =>
  deno === undefined || deno.permissions.querySync({ name: 'env', variable }).state === 'granted';
// Only the get trap: the SDK reads variables by name and never lists them.
const allowedEnv = new Proxy<Record<string, string | undefined>>(
  {},
  { get: (_, name) => (typeof name === 'string' && readable(name) ? process.env[name] : undefined) },
);

export const platform: Platform = {
  ...webPlatform,
  nodeCrypto: () => crypto,
  env: deno === undefined ? () => webPlatform.env() : () => allowedEnv,
  unsetHint: (variable, option) =>
    readable(variable)
      ? webPlatform.unsetHint?.(variable, option)
      : `Deno did not allow reading it: run with --allow-env --allow-net, or pass ${option} to new Wallet()`,
};
