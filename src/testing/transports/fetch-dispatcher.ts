import { Dispatcher } from 'undici';

import { ofType, throwIssues } from '../../core/options.js';

const isFunction = ofType('function');

/** A Fetch-style request handler: what Next.js, Hono, MSW's `getResponse` and the sandbox speak. */
export type FetchHandler = (request: Request) => Promise<Response>;

type AnyHandler = Dispatcher.DispatchHandler & {
  onConnect?: (abort: (err?: Error) => void) => void;
  onHeaders?: (status: number, rawHeaders: Buffer[], resume: () => void, statusText: string) => boolean;
  onData?: (chunk: Buffer) => boolean;
  onComplete?: (trailers: Buffer[] | null) => void;
  onError?: (err: Error) => void;
};

function toHeaders(raw: Dispatcher.DispatchOptions['headers']): Headers {
  const headers = new Headers();
  if (raw == null) return headers;
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(String(raw[i]), String(raw[i + 1]));
    return headers;
  }
  const entries =
    Symbol.iterator in raw
      ? (raw as Iterable<[string, string | string[] | undefined]>)
      : Object.entries(raw as Record<string, string | string[] | undefined>);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

async function toBody(body: Dispatcher.DispatchOptions['body']): Promise<Buffer | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * An undici `Dispatcher` that answers every request from a Fetch-style handler, in process, with
 * no sockets. It drives undici's handler callbacks exactly as a connection would, so the SDK's
 * transport (timeouts, aborts, body reading) runs unchanged against it.
 *
 * @example
 * ```ts
 * const dispatcher = new FetchDispatcher(async (request) => Response.json({ ok: true }));
 * const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: 'http://localhost', dispatcher });
 * ```
 */
export class FetchDispatcher extends Dispatcher {
  readonly #handle: FetchHandler;
  #closed = false;

  /** @param handle - answers each request. */
  constructor(handle: FetchHandler) {
    const problem = isFunction(handle, 'handle');
    if (typeof problem === 'string')
      throwIssues('FetchDispatcher argument', [{ path: 'handle', message: problem }]);
    super();
    this.#handle = handle;
  }

  /** True once `close()` or `destroy()` ran: new requests are refused, as undici's are. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Same as {@link FetchDispatcher.closed}: this dispatcher has nothing to tear down. */
  get destroyed(): boolean {
    return this.#closed;
  }

  /** Starts answering one request; undici calls this. */
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.#closed) {
      // The code undici's own closed dispatchers use, so callers know nothing was sent.
      throw Object.assign(new Error('FetchDispatcher is closed'), { code: 'UND_ERR_CLOSED' });
    }
    void this.#answer(options, handler as AnyHandler);
    return true;
  }

  async #answer(options: Dispatcher.DispatchOptions, handler: AnyHandler): Promise<void> {
    const controller = new AbortController();
    let failed = false;
    const fail = (err: Error): void => {
      if (failed) return;
      failed = true;
      controller.abort(err);
      handler.onError?.(err);
    };
    handler.onConnect?.((err) => fail(err ?? new Error('Request aborted')));
    try {
      const url = new URL(options.path, options.origin);
      const body = await toBody(options.body);
      const request = new Request(url, {
        method: options.method,
        headers: toHeaders(options.headers),
        signal: controller.signal,
        ...(body === undefined ? {} : { body }),
      });
      const response = await this.#handle(request);
      if (failed) return;
      if (response.type === 'error') {
        // `Response.error()` is a dropped connection, as undici reports one from a real socket.
        return fail(
          Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' }),
        );
      }
      const rawHeaders: Buffer[] = [];
      response.headers.forEach((value, name) => rawHeaders.push(Buffer.from(name), Buffer.from(value)));
      let resume: (() => void) | undefined;
      const resumed = (): Promise<void> => new Promise((r) => (resume = r));
      const onResume = (): void => resume?.();
      // `false` is backpressure, unless the handler has given up on the answer (an oversized
      // body aborts it): then no resume ever comes, and the body is cancelled instead.
      const pause = async (): Promise<boolean> => {
        if (failed) {
          await response.body?.cancel().catch(() => undefined);
          return false;
        }
        await resumed();
        return true;
      };
      if (handler.onHeaders?.(response.status, rawHeaders, onResume, response.statusText) === false) {
        if (!(await pause())) return;
      }
      if (response.body) {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          if (failed) return;
          if (handler.onData?.(Buffer.from(chunk)) === false && !(await pause())) return;
        }
      }
      if (!failed) handler.onComplete?.([]);
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Refuses new requests. */
  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.#closed = true;
    if (callback) return callback();
    return Promise.resolve();
  }

  /** Refuses new requests. */
  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    this.#closed = true;
    const callback = typeof a === 'function' ? a : b;
    if (callback) return callback();
    return Promise.resolve();
  }
}
