/**
 * The SDK client every API command uses: `WALLET_SECRET_KEY` and `WALLET_BASE_URL` as the SDK reads
 * them, or `--api-key` / `--base-url`. Key and URL problems come from the SDK itself, so the
 * command line says exactly what the SDK would.
 */
import { Wallet, type ClientOptions } from '@wallet/node';

/** The global flags every API command takes. */
export interface ClientFlags {
  baseUrl?: string;
  apiKey?: string;
}

/** The key's mode from its prefix, without building a client: `live`, `test` or `unknown`. */
export function keyMode(key: string | undefined): 'live' | 'test' | 'unknown' {
  if (key?.startsWith('sk_live_') === true) return 'live';
  if (key?.startsWith('sk_test_') === true) return 'test';
  return 'unknown';
}

/** The key the command will use, for the checks made before any call (live-key confirmations). */
export function keyOf(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flags.apiKey ?? env.WALLET_SECRET_KEY;
}

/** A client from the flags, falling back to the environment as the SDK does. */
export function createClient(flags: ClientFlags, extra: ClientOptions = {}): Wallet {
  const options: ClientOptions = { appInfo: { name: 'wallet-cli' }, ...extra };
  if (flags.apiKey !== undefined) options.apiKey = flags.apiKey;
  if (flags.baseUrl !== undefined) options.baseUrl = flags.baseUrl;
  return new Wallet(options);
}
