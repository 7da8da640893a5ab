import type { Dispatcher } from 'undici';
import type { Sender, AttemptResult, AttemptRequest, Deadline, Stoppable } from './attempt.js';
import { errorCode, startDeadline } from './attempt.js';
import { BoundedBody } from './body.js';
import { BodyDecoder, encodingPlan, type DecodedSink } from './decode.js';

type Settle = (result: AttemptResult) => void;

// Lowercase names; a repeated header is joined with `, ` (as `Headers` does). Latin-1, as undici reads them.
function headersOf(raw: Buffer[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    const seen = out[name];
    out[name] = seen === undefined ? value : `${seen}, ${value}`;
  }
  return out;
}

/**
 * One exchange, as undici's dispatch handler: the response is collected from undici's callbacks
 * straight into the bounded body, with no stream, no async iterator and no promise per chunk.
 * Whatever ends it first (the answer, a failure, the deadline, the caller's signal, an oversized
 * body) settles it; later callbacks are ignored.
 */
class UndiciExchange implements Dispatcher.DispatchHandler, Stoppable {
  readonly #settle: Settle;
  readonly #deadline: Deadline;
  readonly #body = new BoundedBody();
  #abort: ((reason?: Error) => void) | undefined;
  // Set when the deadline or the caller ended the attempt before undici handed over its abort.
  #reason: unknown;
  #settled = false;
  #status = 0;
  #headers: Record<string, string> = {};
  // A compressed answer: the decoder feeds #body, which then counts decoded bytes.
  #decoder: BodyDecoder | undefined;
  #raw = 0;
  #unsupported: string | undefined;
  // undici delivered the whole body; only decoding may be left.
  #complete = false;

  constructor(request: AttemptRequest, settle: Settle) {
    this.#settle = settle;
    this.#deadline = startDeadline(request.timeout, request.signal, this);
  }

  /** Ends the attempt: the deadline passed or the caller aborted. */
  stop(reason: unknown): void {
    if (this.#complete) {
      // undici is done with it; what is left is decoding, which ends here.
      this.#decoder?.destroy();
      this.#end(this.#deadline.failure(reason));
    } else if (this.#abort) this.#abort(reason as Error);
    else {
      // Still queued for a connection: undici hands over its abort just before it writes, so
      // nothing was written and the service cannot have seen it. Answer now; undici drops the
      // request when it reaches a socket.
      this.#reason = reason;
      const result = this.#deadline.failure(reason);
      this.#end(result.kind === 'failure' ? { ...result, reached: false } : result);
    }
  }

  #end(result: AttemptResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#deadline.done();
    this.#settle(result);
  }

  #tooLarge(): false {
    this.#decoder?.destroy();
    this.#end({ kind: 'too_large', status: this.#status, headers: this.#headers, limit: this.#body.limit });
    this.#abort?.(new Error('Response body over the limit'));
    return false;
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.#reason !== undefined) abort(this.#reason as Error);
    else this.#abort = abort;
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    if (status < 200) return true; // 1xx (103 Early Hints, 102): the answer is still to come
    this.#status = status;
    this.#headers = headersOf(raw);
    if (!this.#body.fits(this.#headers['content-length'])) return this.#tooLarge();
    const plan = encodingPlan(this.#headers['content-encoding']);
    if (plan.kind === 'decode') this.#decoder = new BodyDecoder(plan.coding, this.#sink());
    else if (plan.kind === 'unsupported') this.#unsupported = plan.name;
    return true;
  }

  #sink(): DecodedSink {
    return {
      chunk: (chunk) => this.#body.push(chunk) || this.#tooLarge(),
      end: () => this.#answer(this.#body.text(), undefined),
      error: (problem) => this.#answer(`(${problem})`, problem),
    };
  }

  #answer(text: string, undecoded: string | undefined): void {
    const { status, headers } = { status: this.#status, headers: this.#headers };
    this.#end(
      undecoded === undefined
        ? { kind: 'response', status, headers, text }
        : { kind: 'response', status, headers, text, undecoded },
    );
  }

  onData(chunk: Buffer): boolean {
    if (this.#decoder === undefined) return this.#body.push(chunk) || this.#tooLarge();
    // The compressed bytes are held to the cap too: a body bigger than 1 MiB packed is bigger unpacked.
    this.#raw += chunk.byteLength;
    if (this.#raw > this.#body.limit) return this.#tooLarge();
    this.#decoder.write(chunk);
    return true;
  }

  onComplete(): void {
    this.#complete = true;
    if (this.#decoder) this.#decoder.end();
    else if (this.#unsupported === undefined) this.#answer(this.#body.text(), undefined);
    else {
      const problem = `a body in Content-Encoding "${this.#unsupported}", which the SDK cannot decode`;
      this.#answer(`(${problem})`, problem);
    }
  }

  onError(error: Error): void {
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
 */
export function undiciSender(dispatcher: Dispatcher): Sender {
  const state = dispatcher as { closed?: unknown; destroyed?: unknown };
  return (request) =>
    new Promise<AttemptResult>((settle) => {
      // A dispatcher already closed sends nothing; one destroyed mid-request may have sent it.
      if (state.closed === true || state.destroyed === true) {
        const cause = new Error('The dispatcher is closed');
        settle({ kind: 'failure', reason: 'refused', reached: false, code: 'UND_ERR_CLOSED', cause });
        return;
      }
      const exchange = new UndiciExchange(request, settle);
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
