import type { Sender, AttemptResult } from './attempt.js';
import { errorCode, runAttempt } from './attempt.js';
import { readBounded } from './body.js';

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
