import type { DispatchController, DispatchHandler, Dispatcher, Platform } from '../platform/types.js';
import { cutOff, refusal, startDeadline, unredirected, type Deadline, type Stoppable } from './retry.js';
import {
  BodyDecoder,
  BoundedBody,
  MAX_BODY_BYTES,
  encodingPlan,
  readBounded,
  type ChunkSource,
} from './body.js';
import type { AttemptRequest, AttemptResult, FetchFunction, Sender } from './types.js';

// Sending one attempt, through an undici dispatcher or through fetch, under one deadline: an answer,
// one too large to read, or a failure saying whether the request may have reached the service.

type Settle = (result: AttemptResult) => void;
type RealSetImmediate = Platform['realSetImmediate'];
type RawHeaders = Record<string, string | string[] | undefined>;
// Repeated headers joined, as fetch's Headers joins them.
function flatten(headers: RawHeaders, into: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) into[name] = typeof value === 'string' ? value : value.join(', ');
}

// undici's retry interceptor (RetryAgent) and responseError hand a 3xx-5xx on as an error carrying it:
// the service's answer (a 429 that did nothing), not a lost connection. A retry error of a 2xx is not.
type Carried = { status: number; headers: Record<string, string>; text: string };
function carriedAnswer(error: unknown): Carried | undefined {
  try {
    const { code, statusCode: status, headers, body } = error as Record<string, unknown>;
    if (code !== 'UND_ERR_REQ_RETRY' && code !== 'UND_ERR_RESPONSE') return undefined;
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 300 || status > 599) return;
    const flat: Record<string, string> = {};
    if (typeof headers === 'object' && headers !== null) flatten(headers as RawHeaders, flat);
    return { status, headers: flat, text: typeof body === 'string' ? body : (JSON.stringify(body) ?? '') };
  } catch {
    return undefined; // a revoked proxy, a throwing getter: no answer to read
  }
}

/** One exchange as undici's dispatch handler (7 and 8), settled by whatever ends it first. */
class UndiciExchange implements DispatchHandler, Stoppable {
  readonly #settle: Settle;
  readonly #deadline: Deadline;
  readonly #turn: RealSetImmediate;
  readonly #body = new BoundedBody();
  #controller: DispatchController | undefined;
  #reason: unknown; // the attempt ended before undici handed over its controller
  #settled = false;
  #complete = false; // undici delivered the whole body; only decoding may be left
  #status = 0;
  #headers: Record<string, string> = {};
  #decoder: BodyDecoder | undefined;
  #raw = 0;
  #unsupported: string | undefined;
  #resent = false; // a RetryAgent sent this attempt again: an earlier try may have acted

  constructor(request: AttemptRequest, settle: Settle, turn: RealSetImmediate) {
    this.#settle = settle;
    this.#turn = turn;
    this.#deadline = startDeadline(request.timeout, request.signal, this);
  }

  stop(reason: unknown): void {
    if (!this.#complete && this.#controller === undefined) {
      // Still queued for a connection: nothing was written. undici drops it when it reaches a socket.
      this.#reason = reason;
      return this.#end({ ...this.#deadline.failure(reason), reached: false } as AttemptResult);
    }
    // Settled here, before the abort: it ends nothing while a RetryAgent waits between tries, and undici
    // hands its reason back as the error, which may be anything (another call's ResponseError): no answer.
    this.#end(this.#deadline.failure(reason));
    if (this.#complete) this.#decoder?.destroy();
    else this.#controller?.abort(reason as Error);
  }

  // `released`: undici frees the socket a turn after the answer ends; settling after it, on the real
  // timer (a fake clock cannot hold it), lets calls awaited in turn reuse one socket (test/pool.test.ts).
  #end(result: AttemptResult, released = false): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#deadline.done();
    if (this.#resent && result.kind !== 'failure') result = { ...result, resent: true };
    const turn = this.#turn;
    if (released && turn) void Promise.resolve().then(() => turn(() => this.#settle(result)));
    else this.#settle(result);
  }

  #tooLarge(): void {
    this.#decoder?.destroy();
    this.#end({ kind: 'too_large', status: this.#status, headers: this.#headers, limit: this.#body.limit });
    this.#controller?.abort(new Error('Response body over the limit'));
  }

  #answer(text: string, undecoded?: string, released = false): void {
    this.#end({ kind: 'response', status: this.#status, headers: this.#headers, text, undecoded }, released);
  }

  onRequestStart(controller: DispatchController): void {
    // Started after the attempt ended (it waited for a socket, or a RetryAgent tries again): not sent.
    if (this.#settled) return controller.abort((this.#reason ?? new Error('The attempt has ended')) as Error);
    this.#resent = this.#controller !== undefined; // a RetryAgent's next try of it
    this.#controller = controller;
  }

  onResponseStart(_: DispatchController, status: number, headers: RawHeaders): void {
    if (status < 200) return; // 1xx (103 Early Hints, 102): the answer is still to come
    this.#status = status;
    flatten(headers, this.#headers);
    if (!this.#body.fits(this.#headers['content-length'])) return this.#tooLarge();
    const plan = encodingPlan(this.#headers['content-encoding']);
    if (plan.kind === 'unsupported') this.#unsupported = plan.name;
    if (plan.kind !== 'decode') return;
    this.#decoder = new BodyDecoder(plan.coding, {
      chunk: (chunk) => {
        if (this.#body.push(chunk)) return true;
        this.#tooLarge();
        return false;
      },
      end: () => this.#answer(this.#body.text()),
      error: (problem) => this.#answer(`(${problem})`, problem),
    });
  }

  onResponseData(_: DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    if (this.#decoder === undefined) {
      if (!this.#body.push(chunk)) this.#tooLarge();
      // Compressed bytes are held to the cap too: a body over 1 MiB packed is bigger unpacked.
    } else if ((this.#raw += chunk.byteLength) > this.#body.limit) this.#tooLarge();
    else this.#decoder.write(chunk);
  }

  onResponseEnd(): void {
    this.#complete = true;
    if (this.#decoder) this.#decoder.end();
    else if (this.#unsupported === undefined) this.#answer(this.#body.text(), undefined, true);
    else {
      const problem = `a body in Content-Encoding "${this.#unsupported}", which the SDK cannot decode`;
      this.#answer(`(${problem})`, problem);
    }
  }

  onResponseError(_: unknown, error: Error): void {
    const carried = this.#status === 0 ? carriedAnswer(error) : undefined;
    if (carried !== undefined) {
      ({ status: this.#status, headers: this.#headers } = carried);
      if (!this.#body.push(new TextEncoder().encode(carried.text))) return this.#tooLarge();
      return this.#answer(carried.text);
    }
    const failure = this.#deadline.failure(error);
    // Once undici began writing, a code saying "nothing left" (ERR_INVALID_ARG_TYPE from a merchant
    // interceptor's bug) proves nothing; only the SDK's own proxy refusal still does.
    const written = this.#controller !== undefined && failure.kind === 'failure';
    if (written && !failure.reached && failure.code !== 'WALLET_PROXY_REFUSED')
      return this.#end(failure.reason === 'refused' ? cutOff(error) : { ...failure, reached: true });
    this.#end(failure);
  }

  /** dispatch() threw (an interceptor may, after handing the request on): unknown once undici started it. */
  refuse(cause: unknown): void {
    if (this.#controller === undefined) {
      this.#reason = cause ?? new Error('dispatch() threw');
      return this.#end(refusal(cause));
    }
    this.#end(cutOff(cause)); // settled first, as stop(): what undici reports of the abort is not read
    this.#controller.abort(cause as Error);
  }
}

/** Sending through an undici `Dispatcher`, without importing undici; `turn` for the client's own Agent. */
export function undiciSender(dispatcher: Dispatcher, turn?: RealSetImmediate): Sender {
  const state = dispatcher as { closed?: unknown; destroyed?: unknown };
  return (request) =>
    new Promise<AttemptResult>((settle) => {
      // A dispatcher already closed sends nothing; one destroyed mid-request may have sent it.
      if (state.closed === true || state.destroyed === true)
        return settle(refusal(new Error('The dispatcher is closed'), 'UND_ERR_CLOSED'));
      const exchange = new UndiciExchange(request, settle, turn);
      const { origin, path, method, headers, body = null, timeout } = request;
      try {
        // maxRedirections 0: undici's redirect interceptor reads it per request and then follows nothing.
        const limits = { headersTimeout: timeout, bodyTimeout: timeout, maxRedirections: 0 as const };
        dispatcher.dispatch({ origin, path, method, headers, body, ...limits }, exchange);
      } catch (error) {
        exchange.refuse(error);
      }
    });
}

/**
 * A fetch that ignores its signal (a wrapper that drops `init.signal`) is raced, never waited on.
 * One wait at a time, unlike Promise.race against one pending promise, which keeps a reaction per
 * read: a body trickled a byte at a time would pile up a million of them.
 */
class Race {
  #reject: ((reason: unknown) => void) | undefined;
  #stopped: { reason: unknown } | undefined;

  wait<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      Promise.resolve(work).then(resolve, reject);
      if (this.#stopped) this.#reject(this.#stopped.reason);
    });
  }

  stop(reason: unknown): void {
    this.#stopped = { reason };
    this.#reject?.(reason);
  }
}

// node-fetch (v2 and v3, often passed to reach a proxy through its `agent`) hands a Node stream, not
// a web one: both are async iterables of bytes.
type Chunks = { next: ChunkSource; cancel: () => void };
function chunksOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Chunks {
  if (typeof (body as Partial<ReadableStream>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    return { next: () => reader.read(), cancel: () => void reader.cancel().catch(() => undefined) };
  }
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  // A Node stream is destroyed: its iterator's return() waits behind a read under way (a stalled
  // body, cut by the deadline) and does nothing before the first read, so it would let nothing go.
  const stream = body as { destroy?: unknown };
  const cancel = (): void => {
    try {
      if (typeof stream.destroy === 'function') return void (stream.destroy as () => void).call(body);
    } catch {
      // Nothing more can be let go.
    }
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  return { next: () => iterator.next(), cancel };
}

// What fetch decodes by itself (the body it hands over is already decoded).
const FETCH_DECODES = /^(gzip|x-gzip|deflate|br|zstd|identity)$/i;

/** Sending through `fetch` by the undici path's rules; `getFetch` asked each attempt, so MSW's patch is seen. */
export function fetchSender(getFetch: () => FetchFunction | undefined): Sender {
  return async (request): Promise<AttemptResult> => {
    const fetchFn = getFetch();
    if (typeof fetchFn !== 'function')
      return refusal(new TypeError('No fetch function: this runtime has no global fetch'));
    try {
      // The Headers constructor applies the rules fetch will: a value it refuses was never sent.
      new Headers(request.headers);
    } catch (cause) {
      return refusal(cause);
    }
    const controller = new AbortController();
    const race = new Race();
    const deadline = startDeadline(request.timeout, request.signal, {
      stop: (reason) => {
        controller.abort(reason);
        race.stop(reason);
      },
    });
    let cancel = (): void => undefined;
    try {
      const sent = fetchFn(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: controller.signal,
        redirect: 'manual',
      });
      const response = await race.wait(Promise.resolve(sent).then(unredirected)).catch((error: unknown) => {
        // An answer that comes after the deadline, or by a redirect followed, is let go unread.
        void Promise.resolve(sent)
          .then((late) => late.body && chunksOf(late.body).cancel())
          .catch(() => undefined);
        throw error;
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      const { status, body } = response;
      if (!body) return { kind: 'response', status, headers, text: '' };
      const chunks = chunksOf(body);
      cancel = chunks.cancel;
      const coding = headers['content-encoding']?.trim();
      if (coding && !coding.split(',').every((name) => FETCH_DECODES.test(name.trim()))) {
        cancel();
        const undecoded = `a body in Content-Encoding "${coding.slice(0, 64)}", which the SDK cannot decode`;
        return { kind: 'response', status, headers, text: `(${undecoded})`, undecoded };
      }
      // fetch decodes as it streams: the cap counts decoded bytes.
      const read = await readBounded(() => race.wait(chunks.next()), cancel, headers['content-length']);
      return read
        ? { kind: 'response', status, headers, text: read.text() }
        : { kind: 'too_large', status, headers, limit: MAX_BODY_BYTES };
    } catch (cause) {
      cancel();
      return deadline.failure(cause);
    } finally {
      deadline.done();
    }
  };
}
