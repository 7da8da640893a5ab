import type { DispatchController, DispatchHandler, Dispatcher } from '../platform/types.js';
import type { Sender, AttemptResult, AttemptRequest, Deadline, Stoppable } from './attempt.js';
import { errorCode, runAttempt, startDeadline } from './attempt.js';
import { BodyDecoder, BoundedBody, encodingPlan, readBounded, type DecodedSink } from './body.js';
import { objectHead, type ResponseHead } from './api-promise.js';

/**
 * The two ways of sending, each a {@link Sender} of `./attempt.ts`: through undici's public
 * dispatcher interface (the client's own Agent or a merchant's dispatcher), and through `fetch`
 * (Fetch runtimes, or a `fetch` a merchant passes).
 */

type Settle = (result: AttemptResult) => void;

/** The platform's way to run something once the event loop's turn is over (`Platform.realSetImmediate`). */
export type RealSetImmediate = (run: Settle, result: AttemptResult) => void;

// undici hands a keep-alive socket back to its pool one event-loop turn after an answer ends (a
// setImmediate queued just after onComplete, in case the server closes it after all). Settling
// after that turn lets a merchant who awaits one call and then makes the next get the same socket,
// where settling at once made every second call take another one (1, 2, 1, 2), and a load of 32
// calls in flight keep 64 sockets busy. The microtask runs once undici has queued its turn, so this
// one is queued behind it; the wait is the rest of the same loop iteration. Only for the client's
// own Agent, through the platform's real timer (a merchant's fake clock must not hold answers); a
// merchant's dispatcher, a mock on a fake clock among them, is answered at once.
// The hop is a promise job, not `queueMicrotask`, which jest's fake timers replace by default.
// Kept (issue 26) because it pays where a merchant sees it: without it, calls awaited in turn open a
// new connection every second call (test/pool.test.ts goes red: 2 tests), each a TCP and TLS
// handshake, far more than 10% of a call's cost.
function settleAfter(turn: RealSetImmediate, settle: Settle, result: AttemptResult): void {
  void Promise.resolve().then(() => turn(settle, result));
}

// undici's parsed headers (lowercase names, a repeated one as a list), as one string per name.
function joined(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/**
 * One exchange, as undici's public dispatch handler (`onRequestStart` … `onResponseError`, the
 * interface undici 7 and 8 both take): the response is collected from undici's callbacks
 * straight into the bounded body, with no stream, no async iterator and no promise per chunk.
 * Whatever ends it first (the answer, a failure, the deadline, the caller's signal, an oversized
 * body) settles it; later callbacks are ignored.
 */
class UndiciExchange implements DispatchHandler, Stoppable {
  readonly #settle: Settle;
  readonly #deadline: Deadline;
  readonly #realSetImmediate: RealSetImmediate | undefined;
  readonly #body = new BoundedBody();
  #controller: DispatchController | undefined;
  // Set when the deadline or the caller ended the attempt before undici handed over its abort.
  #reason: unknown;
  #settled = false;
  #status = 0;
  #head: ResponseHead | undefined;
  // A compressed answer: the decoder feeds #body, which then counts decoded bytes.
  #decoder: BodyDecoder | undefined;
  #raw = 0;
  #unsupported: string | undefined;
  // undici delivered the whole body; only decoding may be left.
  #complete = false;

  constructor(request: AttemptRequest, settle: Settle, realSetImmediate: RealSetImmediate | undefined) {
    this.#settle = settle;
    this.#realSetImmediate = realSetImmediate;
    this.#deadline = startDeadline(request.timeout, request.signal, this);
  }

  /** Ends the attempt: the deadline passed or the caller aborted. */
  stop(reason: unknown): void {
    if (this.#complete) {
      // undici is done with it; what is left is decoding, which ends here.
      this.#decoder?.destroy();
      this.#end(this.#deadline.failure(reason));
    } else if (this.#controller) this.#controller.abort(reason as Error);
    else {
      // Still queued for a connection: undici hands over its abort just before it writes, so
      // nothing was written and the service cannot have seen it. Answer now; undici drops the
      // request when it reaches a socket.
      this.#reason = reason;
      const result = this.#deadline.failure(reason);
      this.#end(result.kind === 'failure' ? { ...result, reached: false } : result);
    }
  }

  // `released`: undici is about to hand the socket back; the caller hears of it after that.
  #end(result: AttemptResult, released = false): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#deadline.done();
    if (released && this.#realSetImmediate) settleAfter(this.#realSetImmediate, this.#settle, result);
    else this.#settle(result);
  }

  #tooLarge(): false {
    this.#decoder?.destroy();
    this.#end({ kind: 'too_large', status: this.#status, head: this.#head!, limit: this.#body.limit });
    this.#controller?.abort(new Error('Response body over the limit'));
    return false;
  }

  onRequestStart(controller: DispatchController): void {
    if (this.#reason !== undefined) controller.abort(this.#reason as Error);
    else this.#controller = controller;
  }

  onResponseStart(
    _controller: DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (status < 200) return; // 1xx (103 Early Hints, 102): the answer is still to come
    this.#status = status;
    const head = (this.#head = objectHead(joined(headers)));
    if (!this.#body.fits(head.get('content-length'))) {
      this.#tooLarge();
      return;
    }
    const coding = head.get('content-encoding');
    if (coding === undefined) return;
    const plan = encodingPlan(coding);
    if (plan.kind === 'decode') this.#decoder = new BodyDecoder(plan.coding, this.#sink());
    else if (plan.kind === 'unsupported') this.#unsupported = plan.name;
  }

  #sink(): DecodedSink {
    return {
      chunk: (chunk) => this.#body.push(chunk) || this.#tooLarge(),
      end: () => this.#answer(this.#body.text(), undefined),
      error: (problem) => this.#answer(`(${problem})`, problem),
    };
  }

  #answer(text: string, undecoded: string | undefined, released = false): void {
    const status = this.#status;
    const head = this.#head!;
    this.#end(
      undecoded === undefined
        ? { kind: 'response', status, head, text }
        : { kind: 'response', status, head, text, undecoded },
      released,
    );
  }

  onResponseData(_controller: DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    if (this.#decoder === undefined) {
      if (!this.#body.push(chunk)) this.#tooLarge();
      return;
    }
    // The compressed bytes are held to the cap too: a body bigger than 1 MiB packed is bigger unpacked.
    this.#raw += chunk.byteLength;
    if (this.#raw > this.#body.limit) this.#tooLarge();
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

  onResponseError(_controller: unknown, error: Error): void {
    this.#end(this.#deadline.failure(error));
  }

  /** The dispatcher refused the request before sending anything. */
  refuse(cause: unknown): void {
    this.#end({ kind: 'failure', reason: 'refused', reached: false, code: errorCode(cause), cause });
  }
}

/**
 * Sending through an undici `Dispatcher` (the client's own Agent, or the merchant's proxy, mock or
 * pool). It needs no import of undici: a dispatcher is enough. undici's own header and body
 * timeouts are set to the attempt's, so they can never cut a call shorter than `timeout`.
 * `realSetImmediate`: given for the client's own Agent, whose callers hear of an answer once its socket is
 * free again.
 */
export function undiciSender(dispatcher: Dispatcher, realSetImmediate?: RealSetImmediate): Sender {
  const state = dispatcher as { closed?: unknown; destroyed?: unknown };
  return (request) =>
    new Promise<AttemptResult>((settle) => {
      // A dispatcher already closed sends nothing; one destroyed mid-request may have sent it.
      if (state.closed === true || state.destroyed === true) {
        const cause = new Error('The dispatcher is closed');
        settle({ kind: 'failure', reason: 'refused', reached: false, code: 'UND_ERR_CLOSED', cause });
        return;
      }
      const exchange = new UndiciExchange(request, settle, realSetImmediate);
      try {
        dispatcher.dispatch(
          {
            origin: request.origin,
            path: request.path,
            method: request.method,
            headers: request.headers,
            body: request.body ?? null,
            headersTimeout: request.timeout,
            bodyTimeout: request.timeout,
          },
          exchange,
        );
      } catch (error) {
        // dispatch() throws only before anything is written (a closed dispatcher, arguments it
        // refuses): the call is refused here, final and never retried, and nothing can have acted.
        exchange.refuse(error);
      }
    });
}

// What fetch decodes by itself (the body it hands over is already decoded).
const FETCH_DECODES = /^(gzip|x-gzip|deflate|br|zstd|identity)$/i;

/** A Fetch-compatible function: the runtime's `fetch`, or one a merchant wraps. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Sending through `fetch`, with every rule of the undici path: one deadline over connect, headers
 * and body, the body cap, abort, and honest classification. `getFetch` is asked on each attempt,
 * so a `globalThis.fetch` patched later (MSW's `setupServer`) sees the request. Redirects are
 * never followed: the key must not travel to another host.
 */
export function fetchSender(getFetch: () => FetchFunction | undefined): Sender {
  return async (request): Promise<AttemptResult> => {
    const fetchFn = getFetch();
    if (typeof fetchFn !== 'function') {
      const cause = new TypeError('No fetch function: this runtime has no global fetch');
      return { kind: 'failure', reason: 'refused', reached: false, code: undefined, cause };
    }
    try {
      // The Headers constructor applies the same rules fetch will: a value it refuses was never sent.
      new Headers(request.headers);
    } catch (cause) {
      return { kind: 'failure', reason: 'refused', reached: false, code: errorCode(cause), cause };
    }
    return runAttempt(request, async (signal) => {
      const response = await fetchFn(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal,
        redirect: 'manual',
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const { status, body } = response;
      if (!body) return { status, headers, text: '' };
      const reader = body.getReader();
      const cancel = (): void => void reader.cancel().catch(() => undefined);
      const coding = headers['content-encoding']?.trim();
      if (coding && !coding.split(',').every((name) => FETCH_DECODES.test(name.trim()))) {
        cancel();
        const undecoded = `a body in Content-Encoding "${coding.slice(0, 64)}", which the SDK cannot decode`;
        return { status, headers, text: `(${undecoded})`, undecoded };
      }
      // fetch decodes gzip, deflate and br as it streams: the cap below counts decoded bytes.
      return {
        status,
        headers,
        text: (await readBounded(() => reader.read(), cancel, headers['content-length']))?.text(),
      };
    });
  };
}
