import type * as Zlib from 'node:zlib';
import { platform } from '../platform/index.js';

// The one bounded body reader (every way of sending, the webhook handlers), and decoding.

/** The largest response body read, in bytes (1 MiB). */
export const MAX_BODY_BYTES: number = 1024 * 1024;

/** A pull source of chunks: a `ReadableStream` reader's `read`. */
export type ChunkSource = () => Promise<{ done?: boolean; value?: Uint8Array | undefined }>;

const decoder = new TextDecoder();

/** A body collected chunk by chunk, refusing to hold more than `limit` bytes. */
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

/** Reads a body to its end, or calls `cancel` and returns undefined once it passes `limit`. */
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

// Compressed answers on the undici path (fetch decodes by itself), streamed so the cap counts
// decoded bytes and a bomb stops after about a megabyte.
type Coding = 'gzip' | 'deflate' | 'br';

type EncodingPlan =
  { kind: 'identity' } | { kind: 'decode'; coding: Coding } | { kind: 'unsupported'; name: string };

const CODINGS: Readonly<Record<string, Coding>> = {
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
  br: 'br',
};

/** Reads a `Content-Encoding` header: one coding (besides `identity`) is supported. */
export function encodingPlan(header: string | undefined): EncodingPlan {
  const names = (header ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  if (names.length === 0) return { kind: 'identity' };
  const coding = names.length === 1 ? CODINGS[names[0]!] : undefined;
  return coding ? { kind: 'decode', coding } : { kind: 'unsupported', name: names.join(', ').slice(0, 64) };
}

// A zlib header (RFC 1950): method 8, the two bytes a multiple of 31. Else `deflate` is sent raw.
const isZlibWrapped = (chunk: Uint8Array): boolean =>
  chunk.length < 2 || ((chunk[0]! & 0x0f) === 8 && ((chunk[0]! << 8) | chunk[1]!) % 31 === 0);

/** Where decoded bytes go. `chunk` returns false to stop decoding (the body is over its cap). */
export interface DecodedSink {
  chunk(chunk: Uint8Array): boolean;
  end(): void;
  error(problem: string): void;
}

/** A streaming decoder for one body: the sink hears each decoded chunk, then the end or the error, once. */
export class BodyDecoder {
  readonly #coding: Coding;
  readonly #sink: DecodedSink;
  #stream: Zlib.Gunzip | Zlib.Inflate | Zlib.InflateRaw | Zlib.BrotliDecompress | undefined;
  #done = false;

  constructor(coding: Coding, sink: DecodedSink) {
    this.#coding = coding;
    this.#sink = sink;
  }

  #open(first: Uint8Array): boolean {
    const z = platform.zlib();
    if (z === undefined) {
      this.#fail(`a ${this.#coding} body, which this runtime has no zlib to decode`);
      return false;
    }
    // Lenient about a truncated end, as browsers and fetch are; a corrupt stream still fails.
    const flush = { finishFlush: z.constants.Z_SYNC_FLUSH };
    const stream =
      this.#coding === 'gzip'
        ? z.createGunzip(flush)
        : this.#coding === 'br'
          ? z.createBrotliDecompress({ finishFlush: z.constants.BROTLI_OPERATION_FLUSH })
          : isZlibWrapped(first)
            ? z.createInflate(flush)
            : z.createInflateRaw(flush);
    stream.on('data', (chunk: Buffer) => {
      if (this.#done) return;
      if (!this.#sink.chunk(chunk)) this.destroy();
    });
    stream.on('end', () => {
      if (this.#done) return;
      this.#done = true;
      this.#sink.end();
    });
    stream.on('error', (error: Error) =>
      this.#fail(`a ${this.#coding} body that could not be decoded (${error.message})`),
    );
    this.#stream = stream;
    return true;
  }

  #fail(problem: string): void {
    if (this.#done) return;
    this.#done = true;
    this.#stream?.destroy();
    this.#sink.error(problem);
  }

  write(chunk: Uint8Array): void {
    if (this.#done) return;
    if (this.#stream === undefined && !this.#open(chunk)) return;
    this.#stream!.write(chunk);
  }

  end(): void {
    if (this.#done) return;
    if (this.#stream === undefined) {
      // An empty body in a coding decodes to nothing.
      this.#done = true;
      this.#sink.end();
      return;
    }
    this.#stream.end();
  }

  /** Stops decoding at once: nothing more reaches the sink. */
  destroy(): void {
    this.#done = true;
    this.#stream?.destroy();
  }
}
