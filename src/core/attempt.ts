import type { Dispatcher } from 'undici';

/** A response read to its last byte. */
export interface RawResponse {
  status: number;
  /** Lowercase names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
}

/** How one attempt ended. Only `response` carries an answer; the rest say why there is none. */
export type AttemptOutcome =
  | { kind: 'response'; response: RawResponse }
  | { kind: 'timeout'; cause: unknown }
  | { kind: 'network'; cause: unknown }
  | { kind: 'aborted'; cause: unknown };

/** What one attempt sends. */
export interface AttemptRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
}

// A larger answer is no answer this API gives; stop reading rather than fill memory.
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const UNDICI_TIMEOUTS: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

class TimeoutSignal extends Error {
  override readonly name = 'TimeoutError';
}

async function readBody(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      body.destroy();
      throw new Error(`Response body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Sends one request and reads the whole response under a single deadline. One timer covers
 * connecting, the headers and every byte of the body, so a server that stalls mid-body cannot
 * hold the call past `timeout`. The caller's signal ends the attempt at once.
 */
export async function attempt(
  dispatcher: Dispatcher,
  request: AttemptRequest,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new TimeoutSignal(`No complete response within ${timeout} ms`)),
    timeout,
  );
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const { body, ...rest } = request;
    const response = await dispatcher.request({
      ...rest,
      ...(body === undefined ? {} : { body }),
      signal: controller.signal,
    });
    const text = await readBody(response.body);
    return {
      kind: 'response',
      response: { status: response.statusCode, headers: flattenHeaders(response.headers), text },
    };
  } catch (cause) {
    if (signal?.aborted) return { kind: 'aborted', cause: signal.reason };
    const code = (cause as { code?: unknown } | null)?.code;
    if (controller.signal.reason instanceof TimeoutSignal || UNDICI_TIMEOUTS.has(String(code))) {
      return { kind: 'timeout', cause };
    }
    return { kind: 'network', cause };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
