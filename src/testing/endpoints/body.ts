/**
 * Request bodies, read with the SDK's one bounded reader (`core/body.ts`): 1 MiB for the API, 64
 * MiB for a seed of many charges (`POST /_sandbox/seed`, a JSON array or JSON lines). A body over the
 * limit is answered 413 as soon as that is known: at once from `Content-Length`, or at the first
 * chunk past the limit of a chunked body. The bytes beyond are never kept, so four 50 MB uploads
 * cost the sandbox nothing.
 */
import { MAX_BODY_BYTES, readBounded } from '../../core/body.js';
import { SandboxError } from '../state/errors.js';

/**
 * Reads a request's body as UTF-8 text. Throws a 413 {@link SandboxError} past `limit` (1 MiB unless given), after
 * cancelling the rest of the stream.
 * @internal
 */
export async function readBody(request: Request, limit: number = MAX_BODY_BYTES): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const declared = request.headers.get('content-length') ?? undefined;
  const body = await readBounded(
    () => reader.read(),
    () => void reader.cancel().catch(() => {}),
    declared,
    limit,
  );
  if (body === undefined) {
    const size = limit === MAX_BODY_BYTES ? `${limit} bytes (1 MiB)` : `${limit} bytes`;
    throw new SandboxError(413, `The request body is larger than ${size}.`);
  }
  return body.text();
}

/** The largest seed body, bytes (64 MiB: about 400,000 charges as JSON lines). @internal */
export const MAX_SEED_BYTES: number = 64 * 1024 * 1024;

/**
 * The rows of a seed body: a JSON array, or JSON lines (blank lines skipped). A line that is not
 * JSON is a 400 naming its line number.
 * @internal
 */
export async function readSeed(request: Request): Promise<unknown[]> {
  const text = await readBody(request, MAX_SEED_BYTES);
  const start = /\S/.exec(text)?.index;
  if (start === undefined)
    throw new SandboxError(400, 'The seed is empty: send a JSON array of charges, or JSON lines.');
  if (text[start] === '[') {
    let rows: unknown;
    try {
      rows = JSON.parse(text);
    } catch {
      throw new SandboxError(400, 'The seed is not valid JSON.');
    }
    if (!Array.isArray(rows))
      throw new SandboxError(400, 'The seed must be a JSON array of charges, or JSON lines.');
    return rows as unknown[];
  }
  // One parse of the lines joined as an array is several times faster than a parse per line; only
  // a seed that fails it is parsed line by line, to name the bad line.
  const lines = text.split('\n');
  const filled = lines.filter((line) => line.trim() !== '');
  try {
    return JSON.parse(`[${filled.join(',')}]`) as unknown[];
  } catch {
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        JSON.parse(line);
      } catch {
        throw new SandboxError(400, `Line ${index + 1} of the seed is not valid JSON.`);
      }
    });
    throw new SandboxError(400, 'The seed is not valid JSON lines: one JSON object per line.');
  }
}
