/**
 * An answer's headers, read only as far as they are needed. The SDK judges an answer by a few of
 * them (length and encoding, `Retry-After`, `Location`, `Date`), which are found by name in the
 * list undici delivers, without a string per header; the object of every header a merchant sees
 * (`response.headers`, an error's `headers`) is built on the first request for it, once, and
 * scrubbed of the key by the client's one scrubber as it is built.
 */

/** A response's headers: one by name, or all as an object. Names are lowercase. */
export interface ResponseHead {
  /** One header's value, repeats joined with `, `, scrubbed once the scrubber is set; undefined when absent. */
  get(name: string): string | undefined;
  /** Every header (lowercase names, repeats joined with `, `), scrubbed; built once. */
  all(): Record<string, string>;
  /** Sets the scrubber every value read afterwards passes through. */
  scrubWith(text: (value: string) => string): void;
}

type Clean = ((value: string) => string) | undefined;

// Case-insensitive, for a lowercase ASCII `name`, at bytes [start, end) of `bytes`: a header name
// is a token, so OR-ing 0x20 maps only A-Z onto a-z among the bytes it may hold.
function named(bytes: Buffer, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if ((bytes[start + i]! | 0x20) !== name.charCodeAt(i)) return false;
  return true;
}

/** The headers as undici's dispatch handler receives them: names and values, Latin-1, alternating. */
class RawHead implements ResponseHead {
  // One copy of every name and value, end to end, and where each ends. undici's buffers are views
  // of the socket's read chunk, body bytes and all: an answer a merchant keeps must not keep that.
  readonly #bytes: Buffer;
  readonly #ends: number[];
  #clean: Clean;
  #all: Record<string, string> | undefined;

  constructor(raw: readonly Buffer[]) {
    this.#bytes = Buffer.concat(raw);
    const ends: number[] = [];
    let at = 0;
    for (const part of raw) ends.push((at += part.length));
    this.#ends = ends;
  }

  get(name: string): string | undefined {
    if (this.#all !== undefined) return this.#all[name];
    const bytes = this.#bytes;
    const ends = this.#ends;
    let value: string | undefined;
    for (let i = 0, start = 0; i + 1 < ends.length; start = ends[i + 1]!, i += 2) {
      if (!named(bytes, start, ends[i]!, name)) continue;
      const one = bytes.toString('latin1', ends[i], ends[i + 1]);
      value = value === undefined ? one : `${value}, ${one}`;
    }
    return value === undefined || this.#clean === undefined ? value : this.#clean(value);
  }

  all(): Record<string, string> {
    if (this.#all !== undefined) return this.#all;
    const out: Record<string, string> = {};
    const bytes = this.#bytes;
    const ends = this.#ends;
    for (let i = 0, start = 0; i + 1 < ends.length; start = ends[i + 1]!, i += 2) {
      const name = bytes.toString('latin1', start, ends[i]).toLowerCase();
      const value = bytes.toString('latin1', ends[i], ends[i + 1]);
      const seen = out[name];
      out[name] = seen === undefined ? value : `${seen}, ${value}`;
    }
    const clean = this.#clean;
    if (clean !== undefined) for (const name of Object.keys(out)) out[name] = clean(out[name]!);
    // Kept only once scrubbed: nothing unscrubbed outlives the sender.
    if (clean !== undefined) this.#all = out;
    return out;
  }

  scrubWith(text: (value: string) => string): void {
    this.#clean = text;
  }
}

/** Headers already read into an object (fetch's `Headers`), lowercase names. */
class ObjectHead implements ResponseHead {
  readonly #headers: Readonly<Record<string, string>>;
  #clean: Clean;
  #all: Record<string, string> | undefined;

  constructor(headers: Readonly<Record<string, string>>) {
    this.#headers = headers;
  }

  get(name: string): string | undefined {
    const value = this.#headers[name];
    return value === undefined || this.#clean === undefined ? value : this.#clean(value);
  }

  all(): Record<string, string> {
    if (this.#all !== undefined) return this.#all;
    const out = { ...this.#headers };
    const clean = this.#clean;
    if (clean === undefined) return out;
    for (const name of Object.keys(out)) out[name] = clean(out[name]!);
    return (this.#all = out);
  }

  scrubWith(text: (value: string) => string): void {
    this.#clean = text;
  }
}

/** The head of undici's raw header list (`onHeaders`). */
export function rawHead(raw: readonly Buffer[]): ResponseHead {
  return new RawHead(raw);
}

/** The head of headers already in an object. */
export function objectHead(headers: Readonly<Record<string, string>>): ResponseHead {
  return new ObjectHead(headers);
}
