import { ClientClosedError } from '../errors/call.js';
import { ValidationError } from '../errors/base.js';
import type { Accepted, AttemptRequest, Operation, Sender, WithResponse } from './types.js';
import type { Config, RequestOptions } from './config.js';
import { REQUEST_OPTION_RULES, checkOptions, mergeHeaders } from './options.js';
import { KeyMemory, keyReused } from './idempotency.js';
import { describeResult } from './messages.js';
import { callResult, mayHaveActed, type ResultContext } from './outcome.js';
import { delayBeforeRetry, refusal, sleep } from './retry.js';
import { maskParams, traceCall, type RetryTrace } from './trace.js';
import { loadSchemas, snapshot, validate } from './check.js';

export type { RequestOptions } from './config.js';

/** The narrow function resources depend on: send an operation's call, get its typed data. */
export type RequestFn = <T>(
  operation: Operation,
  params: unknown,
  options: RequestOptions | undefined,
  accepted?: Accepted,
) => APIPromise<T>;

/** The request function, and a close that refuses new calls and waits for those under way. */
export interface Transport {
  request: RequestFn;
  close(): Promise<void>;
}

// A snapshot of the parameters or the options (the copy checked is the copy sent), or why not.
function read(value: unknown, name: string, path = '', scrub: Config['scrub']): unknown {
  const taken = snapshot(value, path);
  if (!taken.ok) throw new ValidationError(name, scrub.issues(taken.issues), 'Nothing was sent.');
  return taken.value;
}

const resolveNothing = (resolve: (value: never) => void): void => resolve(undefined as never);

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
    super(resolveNothing);
    this.#result = result;
  }

  /** `Promise`: built-in methods derive plain promises (this constructor takes no executor). */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The data together with the response's status, headers, message, idempotency key and attempts. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
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
  // The built-in `catch` and `finally` call this `then`, as the spec has them do.

  /** Tags it for `Object.prototype.toString`. */
  override get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}

/** The request function over a client's configuration; `openSender` is asked on the first call. */
export function createTransport(config: Config, openSender: () => Promise<Sender>): Transport {
  const { logger, scrub } = config;
  const host = new URL(config.origin).host;
  const keys = new KeyMemory();
  let send: Sender | undefined;
  let inFlight = 0; // close() waits for the last call under way
  let onDrained: (() => void) | undefined;
  let drained: Promise<void> | undefined;
  let closed = false;

  async function execute<T>(
    operation: Operation,
    raw: unknown,
    rawOptions: RequestOptions | undefined,
    accepted: Accepted | undefined,
    trace: RetryTrace | undefined,
  ): Promise<WithResponse<T>> {
    inFlight++;
    // Read now: a call made before close() is under way even while the schemas still load.
    const clientClosed = closed;
    try {
      if (config.unset.length > 0)
        throw new ValidationError('Wallet configuration', config.unset, 'Nothing was sent.');
      // The first call starts loading the way of sending (undici's Agent) now.
      if (send === undefined && !clientClosed) openSender().catch(() => undefined);
      let options: RequestOptions = {};
      if (rawOptions !== undefined) {
        options = read(rawOptions, 'request options', 'options', scrub) ?? {};
        const issues = checkOptions(options, REQUEST_OPTION_RULES, 'options', 'a request option');
        // A key pasted where the idempotency key goes would be sent as a header and named in errors.
        const key = options.idempotencyKey;
        if (issues.length === 0 && typeof key === 'string' && scrub.text(key) !== key)
          issues.push({
            path: 'options.idempotencyKey',
            message: 'holds your secret key: pass a key of your own',
          });
        if (issues.length > 0)
          throw new ValidationError('request options', scrub.issues(issues), 'Nothing was sent.');
      }
      const given = read(raw, operation.paramsName, '', scrub);
      // Checked and sent from one snapshot: zod's copy. The first call waits for zod to load.
      const loaded = loadSchemas(operation.paramsName);
      const schemas = loaded instanceof Promise ? await loaded : loaded;
      const params = validate(operation.paramsName, operation.paramsSchema, given, schemas, scrub);
      const route = operation.route.build(params);
      // What errors, logs and traces show: scrubbed, since a reference may carry anything.
      const endpoint = scrub.text(`${operation.method} ${route}`);
      const post = operation.method === 'POST';
      const idempotencyKey = post ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
      if (clientClosed)
        throw new ClientClosedError({ endpoint, idempotencyKey, attempts: 0, outcomeUnknown: false });
      const path = `${config.basePath}${route}`;
      const request: AttemptRequest = {
        url: `${config.origin}${path}`,
        origin: config.origin,
        path,
        method: operation.method,
        headers: mergeHeaders(
          config.headers,
          options.headers,
          post ? { 'content-type': 'application/json', 'x-idempotency-key': idempotencyKey! } : undefined,
        ),
        body: post ? JSON.stringify(params) : undefined,
        timeout: options.timeout ?? config.timeout,
        signal: options.signal,
      };
      // Generated keys too: a merchant may retry with the key an error carried, but with other parameters.
      if (idempotencyKey !== undefined && !keys.claim(idempotencyKey, route, params, request.body!))
        throw keyReused(endpoint, scrub.text(idempotencyKey));
      const maxAttempts = (options.maxRetries ?? config.maxRetries) + 1;
      const totalTimeout = options.totalTimeout ?? config.totalTimeout;
      // One deadline for the whole call: every attempt and every wait fits before it.
      const deadline = performance.now() + totalTimeout;
      if (logger.enabled('debug'))
        logger.log('debug', `${endpoint} sending`, { idempotencyKey, params: maskParams(params) });
      let sender: Sender;
      try {
        sender = send ??= await openSender();
      } catch (cause) {
        // The way of sending did not load (undici's file, with a proxy set): each attempt is refused.
        sender = () => Promise.resolve(refusal(cause));
      }
      const ctx: ResultContext = {
        call: { endpoint, attempts: 0, idempotencyKey, outcomeUnknown: false },
        host,
        operation,
        scrub,
        params,
        timeout: request.timeout,
        totalTimeout,
        expired: false,
        anyReached: false,
        note: undefined,
        schemas,
      };

      for (let n = 1; ; n++) {
        if (options.signal?.aborted) {
          ctx.call.attempts = n - 1;
          const cause: unknown = options.signal.reason;
          return callResult<T>(
            scrub.result({ kind: 'failure', reason: 'aborted', reached: false, code: undefined, cause }),
            ctx,
          );
        }
        const started = performance.now();
        const left = deadline - started;
        const cut = left < request.timeout;
        const result = scrub.result(
          await sender(cut ? { ...request, timeout: Math.max(1, Math.ceil(left)) } : request),
        );
        ctx.expired = cut && result.kind === 'failure' && result.reason === 'timeout';
        if (post && mayHaveActed(result)) ctx.call.outcomeUnknown = true;
        if (result.kind !== 'failure' || result.reached) ctx.anyReached = true;
        if (logger.enabled('debug')) {
          const ms = Math.round(performance.now() - started);
          logger.log(
            'debug',
            `${endpoint} → ${describeResult(result)} in ${ms} ms (attempt ${n}/${maxAttempts})`,
          );
        }
        const answered = result.kind === 'response' && result.status >= 200 && result.status <= 299;
        const next =
          n < maxAttempts && !answered
            ? delayBeforeRetry(result, n, logger, {
                maxRetryAfter: config.maxRetryAfter,
                left: deadline - performance.now(),
              })
            : undefined;
        if (next !== undefined && 'wait' in next) {
          const { wait } = next;
          trace?.(n + 1, wait, result, ctx.call);
          logger.log(
            'info',
            `${endpoint}: retrying in ${wait} ms (${describeResult(result)}), attempt ${n + 1}/${maxAttempts}`,
          );
          // An abort during the wait is reported by the loop's first check, with the call's account.
          await sleep(wait, options.signal).catch(() => undefined);
          continue;
        }
        ctx.call.attempts = n;
        ctx.note = next?.stop;
        const done = callResult<T>(result, ctx);
        accepted?.(done.data, done.response, params);
        return done;
      }
    } catch (error) {
      // Refused before sending, it is still this call's error: each one names its endpoint (the contract).
      if (error instanceof ValidationError && error.endpoint === undefined)
        Object.assign(error, { endpoint: `${operation.method} ${operation.route.template}`, attempts: 0 });
      throw error;
    } finally {
      if (--inFlight === 0) onDrained?.();
    }
  }

  return {
    request: <T>(
      operation: Operation,
      params: unknown,
      options: RequestOptions | undefined,
      accepted?: Accepted,
    ): APIPromise<T> =>
      new APIPromise<T>(
        traceCall(operation.method, operation.route.template, (trace) =>
          execute<T>(operation, params, options, accepted, trace),
        ),
      ),
    async close() {
      closed = true;
      if (inFlight === 0) return;
      drained ??= new Promise<void>((resolve) => (onDrained = resolve));
      await drained;
    },
  };
}
