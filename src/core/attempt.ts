import { onAbort } from './retry.js';
import { MAX_BODY_BYTES } from './body.js';
import { objectHead, type ResponseHead } from './api-promise.js';

/**
 * The narrow interface every way of sending implements (undici, fetch): one HTTP exchange under
 * one deadline, reported as an answer, an answer too large to read, or a failure that says whether
 * the request may have reached the service. The retry loop reasons only about these results.
 */

/** What one attempt sends. Header names are lowercase, one of each. */
export interface AttemptRequest {
  /** `origin + path`, for fetch. */
  url: string;
  /** For example `https://api.example.ng`. */
  origin: string;
  /** The path and nothing else, for example `/v1/refunds`. */
  path: string;
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  /** Milliseconds from connecting to the last byte of the body. */
  timeout: number;
  /** The caller's signal: ends the attempt at once. */
  signal: AbortSignal | undefined;
}

/** Why an attempt got no answer. `refused`: the HTTP layer refused to send it (nothing left the process). */
export type FailureReason = 'timeout' | 'network' | 'refused' | 'aborted';

/** How one attempt ended. */
export type AttemptResult =
  | {
      kind: 'response';
      status: number;
      /** Its headers, read by name or built into an object when asked. */
      head: ResponseHead;
      text: string;
      /** Set when the body could not be decoded (its Content-Encoding): what went wrong. */
      undecoded?: string | undefined;
    }
  | { kind: 'too_large'; status: number; head: ResponseHead; limit: number }
  | {
      kind: 'failure';
      reason: FailureReason;
      /** May the request have reached the service? False only when provably not (DNS, refused, local). */
      reached: boolean;
      /** The system or library error code, for messages: `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`. */
      code: string | undefined;
      cause: unknown;
    };

/** One way of sending. */
export type Sender = (request: AttemptRequest) => Promise<AttemptResult>;

// Codes that prove nothing was written: the name did not resolve, the connection or TLS handshake
// never completed, or a mock had no answer for it.
const NOT_REACHED: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_MOCK_ERR_MOCK_NOT_MATCHED',
  // A proxy that refused the tunnel or the request (platform/undici-proxy.ts): nothing went further.
  'WALLET_PROXY_REFUSED',
]);
const TLS_HANDSHAKE = /^(ERR_SSL_|ERR_TLS_)|CERT|SELF_SIGNED/;
// The HTTP layer refused the request before sending anything: a header or argument it will not
// send, or a client already closed.
const REFUSED_LOCALLY: ReadonlySet<string> = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_CLOSED',
  'NotCapable',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
]);
const TIMEOUTS: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The first error code along a cause chain (fetch wraps the system error; Node may aggregate). */
export function errorCode(cause: unknown): string | undefined {
  // A revoked Proxy or a throwing getter in what a custom fetch or dispatcher threw: no code.
  return firstAlongCauses(cause, (link) => {
    const { code, errors, name } = link as { code?: unknown; errors?: unknown; name?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    // Deno's permission error (no --allow-net) has no code: its class name is the code.
    if (name === 'NotCapable' || name === 'PermissionDenied') return 'NotCapable';
    const first = Array.isArray(errors) ? (errors[0] as { code?: unknown } | undefined) : undefined;
    return typeof first?.code === 'string' ? first.code : undefined;
  });
}

class DeadlineExceeded extends Error {
  override readonly name = 'TimeoutError';
}

/** What a deadline ends: the attempt under way. */
export interface Stoppable {
  stop(reason: unknown): void;
}

/** One attempt's deadline and the caller's signal, both ending the attempt through `stop`. */
export interface Deadline {
  /** Classifies why the attempt failed; call it from the attempt's failure path. */
  failure(cause: unknown): AttemptResult;
  /** Clears the timer and the listener. */
  done(): void;
}

// A class rather than closures: one object and one timer per attempt, with no AbortController and
// no listener unless the caller passed a signal.
class AttemptDeadline implements Deadline {
  readonly #caller: AbortSignal | undefined;
  #target: Stoppable;
  readonly #timeout: number;
  readonly #timer: ReturnType<typeof setTimeout>;
  #stopListening: (() => void) | undefined;
  #expired = false;

  constructor(timeout: number, caller: AbortSignal | undefined, target: Stoppable) {
    this.#caller = caller;
    this.#target = target;
    this.#timeout = timeout;
    this.#timer = setTimeout(expire, timeout, this);
    // One listener on a signal however many attempts share it (no MaxListenersExceededWarning).
    // Through #target, which done() lets go: the signal may outlive the attempt by far.
    if (caller) this.#stopListening = onAbort(caller, () => this.#target.stop(caller.reason));
  }

  expire(): void {
    this.#expired = true;
    this.#target.stop(new DeadlineExceeded(`No complete response within ${this.#timeout} ms`));
  }

  failure(cause: unknown): AttemptResult {
    const code = errorCode(cause);
    if (this.#caller?.aborted)
      return { kind: 'failure', reason: 'aborted', reached: true, code, cause: this.#caller.reason };
    if (this.#expired || (code !== undefined && TIMEOUTS.has(code))) {
      return { kind: 'failure', reason: 'timeout', reached: code !== 'UND_ERR_CONNECT_TIMEOUT', code, cause };
    }
    if (code !== undefined && REFUSED_LOCALLY.has(code)) {
      return { kind: 'failure', reason: 'refused', reached: false, code, cause };
    }
    // Without a code (a runtime's bare "fetch failed") nothing proves the request stayed here.
    const reached = code === undefined || !(NOT_REACHED.has(code) || TLS_HANDSHAKE.test(code));
    return { kind: 'failure', reason: 'network', reached, code, cause };
  }

  done(): void {
    clearTimeout(this.#timer);
    // A merchant's signal may outlive the attempt by far; the exchange behind it must not.
    this.#target = NOBODY;
    this.#stopListening?.();
    this.#stopListening = undefined;
  }
}

const NOBODY: Stoppable = { stop: () => undefined };

function expire(deadline: AttemptDeadline): void {
  deadline.expire();
}

/**
 * Starts an attempt's deadline: one timer covers connecting, the headers and every byte of the
 * body, so a server that stalls mid-body cannot hold a call past `timeout`. When it expires, or
 * the caller's signal fires, `target.stop` is called with the reason.
 */
export function startDeadline(timeout: number, caller: AbortSignal | undefined, target: Stoppable): Deadline {
  return new AttemptDeadline(timeout, caller, target);
}

/** What a way of sending produces: status, lowercase headers, and the body (undefined: over the cap). */
export interface Exchange {
  status: number;
  headers: Record<string, string>;
  text: string | undefined;
  /** See the `response` outcome. */
  undecoded?: string | undefined;
}

/**
 * Runs one signal-driven exchange (fetch) under the attempt's deadline and turns how it ended into
 * a result, so that way of sending is only its send and its body source. The undici path uses
 * the same deadline and classification directly, from its dispatch handler.
 */
export async function runAttempt(
  request: AttemptRequest,
  exchange: (signal: AbortSignal) => Promise<Exchange>,
): Promise<AttemptResult> {
  // A way of sending that takes only a signal (fetch) gets a controller linked to the deadline;
  // the undici path ends its exchange directly and needs none.
  const controller = new AbortController();
  const deadline = startDeadline(request.timeout, request.signal, {
    stop: (reason) => controller.abort(reason),
  });
  try {
    const { status, headers, text, undecoded } = await exchange(controller.signal);
    const head = objectHead(headers);
    if (text === undefined) return { kind: 'too_large', status, head, limit: MAX_BODY_BYTES };
    return undecoded === undefined
      ? { kind: 'response', status, head, text }
      : { kind: 'response', status, head, text, undecoded };
  } catch (cause) {
    return deadline.failure(cause);
  } finally {
    deadline.done();
  }
}

/**
 * The one walk along an error's cause chain. What a fetch function or a dispatcher throws is often
 * a wrapper (fetch's `TypeError` around undici's error, Node's `AggregateError` around the system
 * errors of each address), so what names the failure lies a few links down. The walk stops after
 * five links, and on a throwing getter or a revoked Proxy in what was thrown: a cause is the
 * caller's object, never trusted to be well behaved.
 */

/** How many links of a cause chain are read at the most. */
const MAX_LINKS = 5;

/**
 * The first value `read` returns (not undefined) for `cause` or one of its causes; undefined when
 * none answers, or when reading throws.
 * @internal
 */
export function firstAlongCauses<T>(cause: unknown, read: (link: object) => T | undefined): T | undefined {
  let current = cause;
  try {
    for (let depth = 0; depth < MAX_LINKS && typeof current === 'object' && current !== null; depth++) {
      const found = read(current);
      if (found !== undefined) return found;
      current = (current as { cause?: unknown }).cause;
    }
  } catch {
    // A throwing getter or a revoked Proxy: nothing more can be read.
  }
  return undefined;
}
