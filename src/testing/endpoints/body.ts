/**
 * Request bodies, read with the SDK's one bounded reader (`core/body.ts`, 1 MiB). A body over the
 * limit is answered 413 as soon as that is known: at once from `Content-Length`, or at the first
 * chunk past the limit of a chunked body. The bytes beyond are never kept, so four 50 MB uploads
 * cost the sandbox nothing.
 */
import { MAX_BODY_BYTES, readBounded } from '../../core/body.js';
import { SandboxError } from '../state/errors.js';

/**
 * Reads a request's body as UTF-8 text. Throws a 413 {@link SandboxError} past 1 MiB, after
 * cancelling the rest of the stream.
 * @internal
 */
export async function readBody(request: Request): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const declared = request.headers.get('content-length') ?? undefined;
  const body = await readBounded(
    () => reader.read(),
    () => void reader.cancel().catch(() => {}),
    declared,
  );
  if (body === undefined) {
    throw new SandboxError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`);
  }
  return body.text();
}
