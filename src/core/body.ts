/**
 * The one bounded body reader, used by every way of sending and by the webhook handlers. A body
 * over the limit is cut off unread: reading on would only fill memory with something no caller
 * accepts.
 */

/** The largest response body read, in bytes (1 MiB). */
export const MAX_BODY_BYTES: number = 1024 * 1024;

/** A pull source of chunks: a `ReadableStream` reader's `read`. */
export type ChunkSource = () => Promise<{ done?: boolean; value?: Uint8Array | undefined }>;

const decoder = new TextDecoder();

/**
 * A body collected chunk by chunk as the transport pushes it, refusing to hold more than `limit`
 * bytes. Push-based, so the undici path reads from its handler's callbacks with no stream and no
 * iterator per chunk; the fetch path pulls into it with {@link readBounded}.
 */
export class BoundedBody {
  #chunks: Uint8Array[] = [];
  #size = 0;
  readonly limit: number;

  constructor(limit: number = MAX_BODY_BYTES) {
    this.limit = limit;
  }

  /** False when the declared `content-length` is already over the limit. */
  fits(declaredLength: string | undefined): boolean {
    return declaredLength === undefined || !(Number(declaredLength) > this.limit);
  }

  /** Adds a chunk; false once the body is over the limit (the caller stops reading). */
  push(chunk: Uint8Array): boolean {
    this.#size += chunk.byteLength;
    if (this.#size > this.limit) return false;
    this.#chunks.push(chunk);
    return true;
  }

  /** The whole body's bytes, as received (a webhook signature is over these). */
  bytes(): Uint8Array {
    const chunks = this.#chunks;
    if (chunks.length === 1) return chunks[0]!;
    const all = new Uint8Array(this.#size);
    let offset = 0;
    for (const chunk of chunks) {
      all.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return all;
  }

  /** The whole body as UTF-8. */
  text(): string {
    return decoder.decode(this.bytes());
  }
}

/**
 * Reads a body to its end, or returns undefined as soon as it exceeds `limit` (including when its
 * declared `content-length` already does), after calling `cancel`. A rejection of `next` (a
 * deadline, a broken upload) passes through.
 */
export async function readBounded(
  next: ChunkSource,
  cancel: () => void,
  declaredLength: string | undefined,
  limit: number = MAX_BODY_BYTES,
): Promise<BoundedBody | undefined> {
  const body = new BoundedBody(limit);
  if (!body.fits(declaredLength)) {
    cancel();
    return undefined;
  }
  for (;;) {
    const { done, value } = await next();
    if (done) return body;
    if (value !== undefined && !body.push(value)) {
      cancel();
      return undefined;
    }
  }
}
