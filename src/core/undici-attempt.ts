import type { Dispatcher } from 'undici';
import type { Attempt, AttemptOutcome } from './attempt.js';
import { runAttempt } from './attempt.js';
import { readBounded } from './body.js';

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Sending through an undici `Dispatcher` (the client's own Agent, or the merchant's proxy, mock or
 * pool). It needs no import of undici: a dispatcher is enough. undici's own header and body
 * timeouts are set to the attempt's, so they can never cut a call shorter than `timeout`.
 */
export function undiciAttempt(dispatcher: Dispatcher): Attempt {
  const state = dispatcher as { closed?: unknown; destroyed?: unknown };
  return async (request): Promise<AttemptOutcome> => {
    // A dispatcher already closed sends nothing; one destroyed mid-request may have sent it.
    if (state.closed === true || state.destroyed === true) {
      const cause = new Error('The dispatcher is closed');
      return { kind: 'failure', reason: 'refused', reached: false, code: 'UND_ERR_CLOSED', cause };
    }
    return runAttempt(request, async (signal) => {
      const response = await dispatcher.request({
        origin: request.origin,
        path: request.path,
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal,
        headersTimeout: request.timeout,
        bodyTimeout: request.timeout,
      });
      const headers = flattenHeaders(response.headers);
      const body = response.body;
      const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
      const text = await readBounded(
        () => iterator.next(),
        () => body.destroy(),
        headers['content-length'],
      );
      return { status: response.statusCode, headers, text };
    });
  };
}
