/**
 * The one bounded body reader of both handlers: at most `maxBytes`, within `timeoutMs` of the
 * handler being called. A body over the limit is not buffered; a body still incomplete at the
 * deadline is abandoned. Either way nothing of it is trusted.
 */
import type { IncomingMessage } from 'node:http';

/** The bounds a body is read within. */
export interface BodyLimits {
  /** The largest body accepted, in bytes. */
  maxBytes: number;
  /** Milliseconds allowed for the whole body. */
  timeoutMs: number;
}

/** The body's bytes, or why there are none: too large, or too slow. */
export type BodyRead = Uint8Array | 'too_large' | 'timeout';

const declaredTooLarge = (value: string | null | undefined, max: number): boolean =>
  value !== null && value !== undefined && Number(value) > max;

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** Reads a Fetch `Request`'s body. Rejects when the sender broke off the upload. */
export async function readRequestBody(request: Request, limits: BodyLimits): Promise<BodyRead> {
  if (declaredTooLarge(request.headers.get('content-length'), limits.maxBytes)) return 'too_large';
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limits.timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      // Typed by hand: the global ReadableStream's reader yields `any`.
      const next = (await Promise.race([reader.read(), expired])) as
        'timeout' | { done: boolean; value?: Uint8Array };
      if (next === 'timeout' || (!next.done && size + (next.value?.byteLength ?? 0) > limits.maxBytes)) {
        reader.cancel().catch(() => undefined);
        return next === 'timeout' ? 'timeout' : 'too_large';
      }
      if (next.done || next.value === undefined) return concat(chunks, size);
      size += next.value.byteLength;
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a `node:http` request's body. Rejects when the request errors or closes before its end. */
export function readNodeBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  if (declaredTooLarge(req.headers['content-length'], limits.maxBytes)) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const settle = (): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onClose);
    };
    const give = (result: BodyRead): void => {
      settle();
      // What is left is read and dropped, so the answer can be written; the handler closes the connection.
      if (typeof result === 'string') req.resume();
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limits.maxBytes) give('too_large');
      else chunks.push(bytes);
    };
    const onEnd = (): void => give(concat(chunks, size));
    const onFailure = (error: unknown): void => {
      settle();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onClose = (): void => onFailure(new Error('The request closed before its body was complete.'));
    const timer = setTimeout(() => give('timeout'), limits.timeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onClose);
  });
}
