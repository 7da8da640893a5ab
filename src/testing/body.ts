/**
 * The sandbox's one bounded body reader. A request body over the limit is answered 413 as soon as
 * that is known: at once from `Content-Length`, or at the first byte past the limit of a chunked
 * body. The bytes beyond are never kept, so four 50 MB uploads cost the sandbox nothing.
 */
import { SandboxError } from './http.js';

/** The largest request body the sandbox reads: 1 MiB, as for the SDK's responses. @internal */
export const MAX_BODY_BYTES: number = 1024 * 1024;

function tooLarge(): SandboxError {
  return new SandboxError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`);
}

/**
 * Reads a request's body as UTF-8 text, at most {@link MAX_BODY_BYTES}. Throws a 413
 * {@link SandboxError} past the limit, after cancelling the rest of the stream.
 * @internal
 */
export async function readBody(request: Request): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > MAX_BODY_BYTES) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
