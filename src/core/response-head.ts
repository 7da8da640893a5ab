/**
 * An answer's headers. The SDK judges an answer by a few of them (length and encoding,
 * `Retry-After`, `Location`, `Date`); the object of every header a merchant sees
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

/** Headers read into an object (undici's parsed headers, fetch's `Headers`), lowercase names. */
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

/** The head of headers already in an object. */
export function objectHead(headers: Readonly<Record<string, string>>): ResponseHead {
  return new ObjectHead(headers);
}
