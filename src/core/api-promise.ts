/** What a successful call reports besides its data. */
export interface ResponseMeta {
  /** HTTP status code. */
  status: number;
  /** Response headers, lowercase names. */
  headers: Readonly<Record<string, string>>;
  /** The envelope's human-readable `message`; the verify endpoint sends none. */
  message: string | undefined;
  /** The `X-Idempotency-Key` the call sent (POST only): keep it to prove what was asked. */
  idempotencyKey: string | undefined;
  /** How many attempts it took: 1 when no retry was needed. */
  attempts: number;
}

/** A call's data together with its {@link ResponseMeta}. */
export interface WithResponse<T> {
  /** The envelope's `data`, checked and typed. */
  data: T;
  /** Status, headers, message, idempotency key and attempts. */
  response: ResponseMeta;
}

/**
 * A call's data and how it was answered, as the transport ends a call: the {@link ResponseMeta}
 * (with its object of every header) is put together only when someone reads `response`; the SDK's
 * own bookkeeping reads a header by name. `withResponse()` hands merchants plain objects.
 * @internal
 */
export class Answer<T> implements WithResponse<T> {
  /** The envelope's `data`, checked. */
  readonly data: T;
  readonly #status: number;
  readonly #head: ResponseHead;
  readonly #message: string | undefined;
  readonly #key: string | undefined;
  readonly #attempts: number;
  #response: ResponseMeta | undefined;

  /** @param data - checked data; the rest as {@link ResponseMeta} names them. */
  constructor(
    data: T,
    status: number,
    head: ResponseHead,
    message: string | undefined,
    idempotencyKey: string | undefined,
    attempts: number,
  ) {
    this.data = data;
    this.#status = status;
    this.#head = head;
    this.#message = message;
    this.#key = idempotencyKey;
    this.#attempts = attempts;
  }

  /** Status, headers (scrubbed), message, idempotency key and attempts, built once. */
  get response(): ResponseMeta {
    this.#response ??= {
      status: this.#status,
      headers: this.#head.all(),
      message: this.#message,
      idempotencyKey: this.#key,
      attempts: this.#attempts,
    };
    return this.#response;
  }

  /** One response header by lowercase name (scrubbed), without building them all. */
  header(name: string): string | undefined {
    return this.#head.get(name);
  }
}

// What withResponse() gives: plain objects, whatever the transport resolved with.
function plain<T>(answer: WithResponse<T>): WithResponse<T> {
  return { data: answer.data, response: answer.response };
}

/**
 * The promise every API method returns: a real `Promise` (`instanceof Promise` is true), so
 * `Promise.all`, `p-retry` and `await` treat it as one. Await it for the data; call
 * `.withResponse()` for the data together with the status, headers, envelope message,
 * idempotency key and attempt count.
 *
 * @example
 * ```ts
 * const { data, response } = await wallet.refunds.create({ reference: 'order_1042' }).withResponse();
 * console.log(data.refundReference, response.idempotencyKey, response.attempts);
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<WithResponse<T>>;

  /** @param result - the call under way. */
  constructor(result: Promise<WithResponse<T>>) {
    // The base promise resolves at once to nothing and is never read: then, catch and finally
    // go to the data, derived from the result when asked, as openai-node's APIPromise does.
    super(resolveNothing);
    this.#result = result;
  }

  /**
   * `Promise`: built-in methods that make a new promise from this one make a plain `Promise`,
   * since this constructor takes a call under way, not an executor.
   */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The data together with the response's status, headers, message, idempotency key and attempts. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result.then(plain);
  }

  /** See `Promise.prototype.then`. */
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    // Straight from the result, one promise per then: a caller who only uses withResponse() gets
    // no second, unhandled rejection, since nothing is derived until asked.
    const fulfilled =
      typeof onfulfilled === 'function'
        ? (r: WithResponse<T>): A | PromiseLike<A> => onfulfilled(r.data)
        : (r: WithResponse<T>): A => r.data as unknown as A;
    return this.#result.then(fulfilled, onrejected);
  }

  /** See `Promise.prototype.catch`. */
  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  /** See `Promise.prototype.finally`. */
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  /** Tags it for `Object.prototype.toString`. */
  override get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}

// The base promise's executor, shared: it captures nothing.
function resolveNothing(resolve: (value: never) => void): void {
  resolve(undefined as never);
}

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
