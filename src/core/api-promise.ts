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
    // The base promise is never read: then, catch and finally go to the result (as openai-node's).
    super((resolve) => resolve(undefined as never));
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
    return this.#result.then(({ data, response }) => ({ data, response }));
  }

  /** See `Promise.prototype.then`. */
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    // Nothing derived until asked: a caller who only uses withResponse() gets no unhandled rejection.
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
