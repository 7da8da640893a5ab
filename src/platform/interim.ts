/**
 * An unsolicited `100 Continue` skipped, on the client's own connections only.
 *
 * RFC 9110 §15.2: a client must parse and may ignore a 1xx it did not ask for. undici's HTTP/1
 * parser skips every 1xx but 100, on which it destroys the socket ("bad response", in
 * `onHeadersComplete` of `lib/dispatcher/client-h1.js`; nodejs/undici#197, "wontfix"), so a
 * server or proxy that sends one turns every POST into a failure whose outcome is unknown. The SDK
 * never sends `Expect: 100-continue`, so a 100 it gets is always one to ignore.
 *
 * undici builds its parser for a socket inside the connector's callback. This wraps the connector
 * and, once that callback has returned and before the socket is first read, gives that one parser
 * an `onHeadersComplete` that ends a 100's head as undici ends any other 1xx's: the message has no
 * body and nothing is handed on. Everything else goes to undici's own method. It works on whole
 * parsed heads, so a 100 split over TCP reads, a 100 with headers, several of them, or one on a
 * reused keep-alive connection are all skipped, and body bytes are never looked at: a body that
 * merely contains `HTTP/1.1 100` is read as the body it is. A 100 with no request under way is
 * still refused by undici (its `onMessageBegin` runs first). If undici's parser ever stops looking
 * like this, nothing is changed and a 100 fails the call as before.
 *
 * Connections the SDK does not own (a `fetch` function, Node's own fetch included, or a merchant's
 * dispatcher) still fail on a 100; {@link refusedContinue} recognises that failure, so the message
 * can say what happened without `core/` knowing which HTTP stack it is on.
 */

import { firstAlongCauses } from '../internal/causes.js';

/** A connector, as undici's `connect` option takes it (`buildConnector()`'s result). */
export type Connector = (
  options: object,
  callback: (error: Error | null, socket: object | null) => void,
) => unknown;

interface H1Parser {
  socket: { destroyed?: boolean };
  statusCode: number;
  onHeadersComplete: (this: H1Parser, statusCode: number, upgrade: boolean, keepAlive: boolean) => number;
}

// undici keeps its parser under a symbol of its own (`Symbol('parser')`); found by its description,
// so any copy of undici works (the bundled Agent's, or the external one a proxy uses).
function parserOf(socket: object): H1Parser | undefined {
  for (const symbol of Object.getOwnPropertySymbols(socket)) {
    if (symbol.description !== 'parser') continue;
    const parser = (socket as Record<symbol, unknown>)[symbol] as Partial<H1Parser> | null | undefined;
    if (parser?.socket === socket && typeof parser.onHeadersComplete === 'function')
      return parser as H1Parser;
  }
  return undefined;
}

function skipContinueOn(socket: object): void {
  const parser = parserOf(socket);
  if (parser === undefined) return; // HTTP/2, or an undici this no longer fits: left as it is
  const original = parser.onHeadersComplete;
  parser.onHeadersComplete = function (statusCode, upgrade, keepAlive) {
    if (statusCode !== 100 || upgrade || this.socket.destroyed === true)
      return original.call(this, statusCode, upgrade, keepAlive);
    // A 1xx's status, so undici's onMessageComplete resets the parser for the answer still to come.
    this.statusCode = 100;
    return 1; // no body
  };
}

/** `connect`, with every HTTP/1 connection it opens skipping an unsolicited `100 Continue`. */
export function skipContinue(connect: Connector): Connector {
  return (options, callback) =>
    connect(options, (error, socket) => {
      callback(error, socket);
      // undici has now built the socket's parser; the first read comes later, on 'readable'.
      if (!error && socket !== null && typeof socket === 'object') skipContinueOn(socket);
    });
}

/**
 * True when `cause` (or one of its first few causes) is how undici's HTTP/1 parser fails a
 * connection on a `100 Continue` it will not read past: `UND_ERR_SOCKET`, "bad response".
 */
export function refusedContinue(cause: unknown): boolean {
  return firstAlongCauses(cause, isContinueRefusal) === true;
}

function isContinueRefusal(link: object): true | undefined {
  const { code, message } = link as { code?: unknown; message?: unknown };
  return code === 'UND_ERR_SOCKET' && message === 'bad response' ? true : undefined;
}
