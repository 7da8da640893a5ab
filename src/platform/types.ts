/**
 * The runtime seam: everything that differs between Node, Fetch runtimes (workers, edge functions,
 * Bun, Deno) and browsers, behind one small interface. Each entry of the package is built with one
 * implementation (`node.ts`, `web.ts`, `bun-deno.ts`, `browser.ts`; see `tsup.config.ts`), chosen
 * by the package's export conditions, so no other module probes globals to guess where it runs.
 */
import type * as NodeCryptoModule from 'node:crypto';
import type * as DiagnosticsChannel from 'node:diagnostics_channel';
import type * as ZlibModule from 'node:zlib';
import type { Dispatcher } from 'undici';
import type { ProxyRoute } from './proxy.js';

/** `node:crypto`, for the synchronous webhook functions. */
export type NodeCrypto = typeof NodeCryptoModule;

/** `node:zlib`, for decoding compressed responses on the undici path. */
export type Zlib = typeof ZlibModule;

/** Web Crypto's `SubtleCrypto`, for the asynchronous webhook verifier. */
export type SubtleCrypto = NodeCryptoModule.webcrypto.SubtleCrypto;

/** `node:diagnostics_channel`, for the `wallet:request` tracing channel. */
export type Diagnostics = typeof DiagnosticsChannel;

/** Options of the client's own undici Agent (a subset of undici's `Agent.Options`). */
export interface AgentOptions {
  connect: { minVersion: 'TLSv1.3' };
  keepAliveTimeout: number;
  headersTimeout: number;
  bodyTimeout: number;
  connections: number;
  /** A proxy for the client's own connections (platform/proxy.ts), where the runtime can use one. */
  proxy?: ProxyRoute | undefined;
}

/** What the SDK needs from the runtime it runs on. */
export interface Platform {
  /** The runtime in the `User-Agent`, for example `node/22.11.0`; header-safe. */
  readonly runtime: string;
  /** The environment variables the SDK reads (`WALLET_SECRET_KEY`, …), or an empty record. */
  env(): Readonly<Record<string, string | undefined>>;
  /**
   * Why `env()` could not give a variable, and what to do, where the runtime is the reason: a
   * Worker has no `process.env`; Deno reads none without `--allow-env`. Undefined elsewhere.
   */
  readonly unsetHint?: (variable: string, option: string) => string | undefined;
  /**
   * Builds the client's own undici Agent, loading it on the first call; `undefined` where the
   * runtime's `fetch` is the way to send.
   */
  readonly createAgent: ((options: AgentOptions) => Promise<Dispatcher>) | undefined;
  /**
   * Runs `run(value)` once the event loop's current turn is over, on the runtime's own timer: a
   * merchant's test that fakes the global `setImmediate` must not hold the SDK's answers. Used
   * with the platform's own Agent, which frees a keep-alive socket one turn after an answer
   * ends; `undefined` where there is no such Agent.
   */
  readonly afterTurn: (<T>(run: (value: T) => void, value: T) => void) | undefined;
  /** `node:diagnostics_channel`, or `undefined` where tracing is not offered. */
  diagnostics(): Diagnostics | undefined;
  /** `node:crypto`, or `undefined` where only Web Crypto exists. */
  nodeCrypto(): NodeCrypto | undefined;
  /** Web Crypto's `crypto.subtle`, or `undefined` on a runtime without it. */
  subtle(): SubtleCrypto | undefined;
  /** `node:zlib`, or `undefined` where the runtime's fetch decodes bodies itself. */
  zlib(): Zlib | undefined;
  /**
   * Set where the SDK must not run at all (a browser): why, in a sentence for the merchant. The
   * client and the webhook functions refuse to be used there.
   */
  readonly refusal: string | undefined;
}
