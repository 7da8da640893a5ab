/** The in-process ways of serving the sandbox: an undici-style dispatcher and MSW handlers. */
import { createRequire } from 'node:module';

import type * as MswModule from 'msw';

import { ofType, throwIssues } from '../../core/options.js';
import type { DispatchHandler, DispatchOptions, Dispatcher } from '../../platform/types.js';

/** A Fetch-style request handler: what Next.js, Hono, MSW's `getResponse` and the sandbox speak. */
export type FetchHandler = (request: Request) => Promise<Response>;

function toHeaders(raw: DispatchOptions['headers'] | unknown[] | null | undefined): Headers {
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

async function toBody(body: unknown): Promise<string | Uint8Array | undefined> {
  if (body == null || typeof body === 'string' || body instanceof Uint8Array) return body ?? undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * An undici-style `Dispatcher` answering from a Fetch-style handler, in process: it drives undici's
 * handler callbacks as a socket would, so the SDK's timeouts, aborts and body reading run unchanged.
 *
 * @example
 * ```ts
 * const dispatcher = new FetchDispatcher(async (request) => Response.json({ ok: true }));
 * const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: 'http://localhost', dispatcher });
 * ```
 */
export class FetchDispatcher implements Dispatcher {
  readonly #handle: FetchHandler;
  #closed = false;

  /** @param handle - answers each request. */
  constructor(handle: FetchHandler) {
    const problem = ofType('function')(handle, 'handle');
    if (typeof problem === 'string')
      throwIssues('FetchDispatcher argument', [{ path: 'handle', message: problem }]);
    this.#handle = handle;
  }

  /** True once `close()` or `destroy()` ran: new requests are refused, as undici's are. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Same as {@link FetchDispatcher.closed}. */
  get destroyed(): boolean {
    return this.#closed;
  }

  /** Starts answering one request; undici calls this. */
  dispatch(options: DispatchOptions, handler: DispatchHandler): boolean {
    // The code undici's own closed dispatchers use, so callers know nothing was sent.
    if (this.#closed) throw Object.assign(new Error('FetchDispatcher is closed'), { code: 'UND_ERR_CLOSED' });
    void this.#answer(options, handler);
    return true;
  }

  async #answer(options: DispatchOptions, handler: DispatchHandler): Promise<void> {
    const controller = new AbortController();
    let failed = false;
    const fail = (err: Error): void => {
      if (failed) return;
      failed = true;
      controller.abort(err);
      handler.onResponseError(requestController, err);
    };
    const requestController = { abort: (err?: Error) => fail(err ?? new Error('Request aborted')) };
    handler.onRequestStart(requestController, {});
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
      // `Response.error()` is a dropped connection, as undici reports one from a real socket.
      if (response.type === 'error')
        return fail(
          Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' }),
        );
      const headers = Object.create(null) as Record<string, string>;
      response.headers.forEach((value, name) => {
        const seen = headers[name];
        headers[name] = seen === undefined ? value : `${seen}, ${value}`;
      });
      handler.onResponseStart(requestController, response.status, headers, response.statusText);
      // A handler that gave up on the answer (an oversized body aborts it): the body is cancelled.
      if (failed) return void (await response.body?.cancel().catch(() => undefined));
      if (response.body) {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          if (failed) return void (await response.body.cancel().catch(() => undefined));
          handler.onResponseData(requestController, Buffer.from(chunk));
        }
      }
      if (!failed) handler.onResponseEnd(requestController, {});
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Refuses new requests. */
  close(): Promise<void>;
  close(callback: () => void): void;
  close(callback?: () => void): Promise<void> | void {
    return callback ? this.destroy(null, callback) : this.destroy();
  }

  /** Refuses new requests. */
  destroy(): Promise<void>;
  destroy(err: Error | null): Promise<void>;
  destroy(callback: () => void): void;
  destroy(err: Error | null, callback: () => void): void;
  destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    this.#closed = true;
    const callback = typeof a === 'function' ? a : b;
    return callback ? callback() : Promise.resolve();
  }
}

/** One MSW request handler (`setupServer()`, `worker.use()`); `any`, as msw's classes have private members. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- no other type is both msw-free and accepted by msw.
export type SandboxMswHandler = any;

/** One catch-all handler for every method under `baseUrl`, typed without msw. @internal */
export function mswHandlers(baseUrl: string, handle: FetchHandler): readonly unknown[] {
  let msw: typeof MswModule;
  try {
    // require, not import(): `sandbox.handlers` is a plain property (tsup shims import.meta.url in CJS).
    msw = createRequire(import.meta.url)('msw') as typeof MswModule;
  } catch (cause) {
    if ((cause as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw cause;
    throw new Error(
      'sandbox.handlers needs msw (2 or 3), an optional peer dependency of @wallet/node: npm install --save-dev msw. ' +
        'Without msw, use sandbox.dispatcher or sandbox.listen().',
      { cause },
    );
  }
  return [msw.http.all(`${baseUrl}/*`, ({ request }) => handle(request))];
}
