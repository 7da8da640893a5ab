/**
 * The handlers' side of the one bounded body reader (`core/body.ts`): the same cap, plus the
 * deadline a webhook route needs because its sender, not the SDK, decides how fast the body comes.
 * A body over the limit is not buffered; a body still incomplete at the deadline is abandoned.
 * Either way nothing of it is trusted.
 */
import type { IncomingMessage } from 'node:http';
import { BoundedBody, readBounded } from '../core/body.js';

/** The bounds a body is read within. */
export interface BodyLimits {
  /** The largest body accepted, in bytes. */
  maxBytes: number;
  /** Milliseconds allowed for the whole body. */
  timeoutMs: number;
}

/** The body's bytes, or why there are none: too large, or too slow. */
export type BodyRead = Uint8Array | 'too_large' | 'timeout';

// One shared instance, compared by identity: it only ever means "the deadline passed".
const EXPIRED = new Error('The webhook body deadline passed.');
type Chunk = { done?: boolean; value?: Uint8Array | undefined };

/** Reads a Fetch `Request`'s body. Rejects when the sender broke off the upload. */
export async function readRequestBody(request: Request, limits: BodyLimits): Promise<BodyRead> {
  const declared = request.headers.get('content-length') ?? undefined;
  if (request.body === null) {
    return new BoundedBody(limits.maxBytes).fits(declared) ? new Uint8Array(0) : 'too_large';
  }
  const reader = request.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(EXPIRED), limits.timeoutMs);
  });
  try {
    // Typed by hand: the global ReadableStream's reader yields `any`.
    const next = (): Promise<Chunk> => Promise.race([reader.read() as Promise<Chunk>, expired]);
    const body = await readBounded(next, cancel, declared, limits.maxBytes);
    return body === undefined ? 'too_large' : body.bytes();
  } catch (error) {
    if (error !== EXPIRED) throw error;
    cancel();
    return 'timeout';
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a `node:http` request's body. Rejects when the request errors or closes before its end. */
export function readNodeBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  const body = new BoundedBody(limits.maxBytes);
  if (!body.fits(req.headers['content-length'])) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
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
      if (!body.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) give('too_large');
    };
    const onEnd = (): void => give(body.bytes());
    const onFailure = (error: unknown): void => {
      settle();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onClose = (): void => onFailure(new Error('The request closed before its body was complete.'));
    const timer = setTimeout(() => give('timeout'), limits.timeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onClose);
  });
}
