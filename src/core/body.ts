/**
 * The one bounded body reader, used by every way of sending. A body over the limit is cut off
 * unread: the service answered, but not with anything this API gives, and reading on would only
 * fill memory.
 */

/** The largest response body read, in bytes (1 MiB). */
export const MAX_BODY_BYTES: number = 1024 * 1024;

/** A pull source of chunks: an undici body's iterator, or a `ReadableStream` reader. */
export type ChunkSource = () => Promise<{ done?: boolean; value?: Uint8Array | undefined }>;

const decoder = new TextDecoder();

/**
 * Reads a body to its end as UTF-8, or returns undefined as soon as it exceeds `limit` (including
 * when its declared `content-length` already does), after calling `cancel`.
 */
export async function readBounded(
  next: ChunkSource,
  cancel: () => void,
  declaredLength: string | undefined,
  limit: number = MAX_BODY_BYTES,
): Promise<string | undefined> {
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    cancel();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await next();
    if (done) break;
    if (value === undefined) continue;
    size += value.byteLength;
    if (size > limit) {
      cancel();
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(all);
}
