/** The SDK client of every API command: the flags, else the environment as the SDK reads it (so problems are in the SDK's words). */
import { Console } from 'node:console';

import { Wallet, type ClientOptions } from '@wallet/node';

export interface ClientFlags {
  baseUrl?: string;
  apiKey?: string;
}

/** Whether the command will use a live key (asked before any call: confirmations, notes). */
export function isLiveKey(flags: ClientFlags): boolean {
  return (flags.apiKey ?? process.env.WALLET_SECRET_KEY)?.startsWith('sk_live_') === true;
}

/** A client from the flags, falling back to the environment as the SDK does. */
export function createClient(flags: ClientFlags, extra: ClientOptions = {}): Wallet {
  // The SDK logs (WALLET_LOG) through console, whose debug and info are stdout: stdout is the
  // result's (--json, a pipeline), so every log line goes to stderr.
  const logger = new Console({ stdout: process.stderr, stderr: process.stderr });
  const options: ClientOptions = { appInfo: { name: 'wallet-cli' }, logger, ...extra };
  if (flags.apiKey !== undefined) options.apiKey = flags.apiKey;
  if (flags.baseUrl !== undefined) options.baseUrl = flags.baseUrl;
  return new Wallet(options);
}
