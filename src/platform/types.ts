/**
 * The runtime seam: what differs between Node, Fetch runtimes, Bun/Deno and browsers. Each entry is
 * built with one implementation, chosen by export conditions (`tsup.config.ts`); nothing probes globals.
 */
import type * as NodeCryptoModule from 'node:crypto';
import type * as DiagnosticsChannel from 'node:diagnostics_channel';
import type * as ZlibModule from 'node:zlib';
import type { ProxyRoute } from './proxy.js';

/** `node:crypto`, for the synchronous webhook functions. */
export type NodeCrypto = typeof NodeCryptoModule;

/** `node:zlib`, for decoding compressed responses on the undici path. */
export type Zlib = typeof ZlibModule;

/** Web Crypto's `SubtleCrypto`, for the asynchronous webhook verifier. */
export type SubtleCrypto = NodeCryptoModule.webcrypto.SubtleCrypto;

/** `node:diagnostics_channel`, for the `wallet:request` tracing channel. */
export type Diagnostics = typeof DiagnosticsChannel;

/**
 * An undici `Dispatcher` as the SDK uses it: `dispatch()` with undici's public handler interface
 * (7 and 8). Declared, not imported: the types need no undici, and any `Agent`, `Pool`,
 * `ProxyAgent` or `MockAgent` of either major fits.
 * @category Client
 */
export interface Dispatcher {
  /** Sends one request; the handler hears of its answer. */
  dispatch(options: DispatchOptions, handler: DispatchHandler): boolean;
}

/** A dispatcher the client owns and closes. */
export interface OwnDispatcher extends Dispatcher {
  /** Closes its connections once the requests under way are answered. */
  close(): Promise<void>;
}

/**
 * The request, as the SDK hands it to `dispatch()`.
 * @category Client
 */
export interface DispatchOptions {
  /** `https://host[:port]` of the service. */
  origin: string;
  /** Path and query, encoded. */
  path: string;
  /** `GET` or `POST`. */
  method: string;
  /** Lowercase names; the key's `Authorization` among them. */
  headers: Record<string, string>;
  /** The JSON body of a POST, else `null`. */
  body: string | null;
  /** Never shorter than the call's own deadline, which decides. */
  headersTimeout: number;
  /** As `headersTimeout`. */
  bodyTimeout: number;
  /** 0: a redirect interceptor in a merchant's `compose()` chain follows none (a 3xx is never followed). */
  maxRedirections: 0;
}

/**
 * What undici gives a handler to end its request with.
 * @category Client
 */
export interface DispatchController {
  /** Ends the request; its handler hears `onResponseError(reason)`. */
  abort(reason: Error): void;
}

/**
 * undici's public handler interface, the part the SDK implements.
 * @category Client
 */
export interface DispatchHandler {
  /** The request is about to be written. */
  onRequestStart(controller: DispatchController, context: unknown): void;
  /** The answer's status and headers (lowercase names); a 1xx is not the answer yet. */
  onResponseStart(
    controller: DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage?: string,
  ): void;
  /** A piece of the body. */
  onResponseData(controller: DispatchController, chunk: Buffer): void;
  /** The whole body has arrived. */
  onResponseEnd(controller: DispatchController, trailers: unknown): void;
  /** The request failed: refused, cut off, aborted or timed out. */
  onResponseError(controller: DispatchController | null | undefined, error: Error): void;
}

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
  /** Why the runtime kept `env()` from giving a variable (a Worker; Deno without `--allow-env`), and what to do. */
  readonly unsetHint?: (variable: string, option: string) => string | undefined;
  /** Builds the client's own undici Agent (loaded by the first call); `undefined` where fetch is used. */
  readonly createAgent: ((options: AgentOptions) => Promise<OwnDispatcher>) | undefined;
  /** Runs `run` after the event loop's turn on the runtime's real timer (a faked one must not hold answers). */
  readonly realSetImmediate: ((run: () => void) => void) | undefined;
  /** `node:diagnostics_channel`, or `undefined` where tracing is not offered. */
  diagnostics(): Diagnostics | undefined;
  /** `node:crypto`, or `undefined` where only Web Crypto exists. */
  nodeCrypto(): NodeCrypto | undefined;
  /** Web Crypto's `crypto.subtle`, or `undefined` on a runtime without it. */
  subtle(): SubtleCrypto | undefined;
  /** `node:zlib`, or `undefined` where the runtime's fetch decodes bodies itself. */
  zlib(): Zlib | undefined;
  /** Why the SDK refuses to run here (a browser), in a sentence for the merchant; else undefined. */
  readonly refusal: string | undefined;
}
