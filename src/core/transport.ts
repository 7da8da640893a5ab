import { FAIL, guards, runGuard, type SchemaName } from '../schemas/guards.js';
import type { Route } from '../internal/route.js';
import { ClientClosedError, ValidationError } from '../errors.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { Sender, AttemptResult, AttemptRequest } from './send.js';
import type { Config } from './config.js';
import { REQUEST_OPTION_RULES, checkOptions, mergeHeaders, type RequestOptions } from './options.js';
import { KeyMemory, keyReused, type Echo } from './idempotency.js';
import { callResult, mayHaveActed, GUARD_DOUBTS, type ResultContext } from './outcome.js';
import { delayBeforeRetry, sleep } from './retry.js';
import { maskParams, traceCall, type RetryTrace } from './trace.js';
import { loadSchemas, snapshot, validate } from './check.js';

export type { RequestOptions } from './options.js';
// A schema by name: resources never name zod (see `../schemas/guards.ts`).
export type { SchemaName } from '../schemas/guards.js';

/** One API call as a resource describes it; the transport does the rest. */
export interface ApiCall {
  method: 'GET' | 'POST';
  /** What the parameters are called in messages, for example `dispatch parameters`. */
  paramsName: string;
  /** The route, declared once with the `path` tag: its template for tracing, its path from the checked parameters. */
  route: Route;
  params: unknown;
  paramsSchema: SchemaName;
  dataSchema: SchemaName;
  options: RequestOptions | undefined;
  /** What the call is, in a merchant's words, for messages: `refund of ₦4,500.00 (450000 Kobo) on order_1042`. */
  summary?: (params: Record<string, unknown>) => string;
  /** How to confirm an unknown outcome, for example `charges.verify('order_1042')`; none for a refund. */
  confirm?: (params: Record<string, unknown>) => string;
  /**
   * Response fields that must echo parameters: an answer that contradicts them is another
   * request's saved answer to the same idempotency key (`IdempotencyError`, `replay_mismatch`).
   */
  echoes?: readonly Echo[];
  /** Told of a successful answer before the call resolves (a dispatch's expiry is remembered). */
  accepted?: (data: unknown, answer: AnswerHeaders) => void;
}

/** What an `accepted` hook may read of the answer: one header by lowercase name. */
export interface AnswerHeaders {
  header(name: string): string | undefined;
}

/** The narrow function resources depend on: send a call, get its typed data. */
export type RequestFn = <T>(call: ApiCall) => APIPromise<T>;

/** The request function, and a close that refuses new calls and waits for those under way. */
export interface Transport {
  request: RequestFn;
  close(): Promise<void>;
}

// A snapshot of the parameters or the options, or the ValidationError that says why not.
function read(value: unknown, name: string, path = '', scrub: Config['scrub']): unknown {
  const taken = snapshot(value, path);
  if (!taken.ok) throw new ValidationError(name, scrub.issues(taken.issues), 'Nothing was sent.');
  return taken.value;
}

/**
 * Creates the request function over a client's configuration. `openSender` is asked on the
 * first call, so the client can create its own Agent (or pick fetch) lazily.
 */
export function createTransport(config: Config, openSender: () => Promise<Sender>): Transport {
  const { logger, scrub } = config;
  const host = new URL(config.origin).host;
  const keys = new KeyMemory();
  let send: Sender | undefined;
  // close() only needs to know when the last call settles.
  let inFlight = 0;
  let onDrained: (() => void) | undefined;
  let drained: Promise<void> | undefined;
  let closed = false;

  async function execute<T>(call: ApiCall, trace: RetryTrace | undefined): Promise<WithResponse<T>> {
    inFlight++;
    // Read now: a call made before close() is under way even while the schemas still load.
    const clientClosed = closed;
    try {
      if (config.unset.length > 0)
        throw new ValidationError('Wallet configuration', config.unset, 'Nothing was sent.');
      // The first call starts loading the way of sending now; a call that then fails validation
      // has only loaded it early.
      if (send === undefined && !clientClosed) openSender().catch(() => undefined);
      let options: RequestOptions = {};
      if (call.options !== undefined) {
        options = read(call.options, 'request options', 'options', scrub) ?? {};
        const issues = checkOptions(options, REQUEST_OPTION_RULES, 'options', 'a request option');
        if (issues.length > 0)
          throw new ValidationError('request options', scrub.issues(issues), 'Nothing was sent.');
      }
      const given = read(call.params, call.paramsName, '', scrub);
      // Checked and sent from one snapshot: the guard's copy, or zod's when the guard doubts.
      const guarded = runGuard(guards[call.paramsSchema], given);
      const params =
        guarded === FAIL
          ? validate(call.paramsName, call.paramsSchema, given, await loadSchemas(), scrub)
          : (guarded as Record<string, unknown>);
      const route = call.route.build(params);
      // What errors, logs and traces show: scrubbed, since a reference may carry anything.
      const endpoint = scrub.text(`${call.method} ${route}`);
      const post = call.method === 'POST';
      const idempotencyKey = post ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
      if (clientClosed)
        throw new ClientClosedError({ endpoint, idempotencyKey, attempts: 0, outcomeUnknown: false });
      const path = `${config.basePath}${route}`;
      const request: AttemptRequest = {
        url: `${config.origin}${path}`,
        origin: config.origin,
        path,
        method: call.method,
        headers: post
          ? mergeHeaders(config.headers, options.headers, {
              'content-type': 'application/json',
              'x-idempotency-key': idempotencyKey!,
            })
          : mergeHeaders(config.headers, options.headers),
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
      send ??= await openSender();
      const ctx: ResultContext = {
        call: { endpoint, attempts: 0, idempotencyKey, outcomeUnknown: false },
        host,
        description: call,
        scrub,
        params,
        timeout: request.timeout,
        totalTimeout,
        expired: false,
        note: undefined,
        dataSchema: call.dataSchema,
      };

      for (let n = 1; ; n++) {
        if (options.signal?.aborted) {
          const reason: unknown = options.signal.reason;
          ctx.call.attempts = n - 1;
          const aborted: AttemptResult = {
            kind: 'failure',
            reason: 'aborted',
            reached: false,
            code: undefined,
            cause: reason,
          };
          return callResult<T>(scrub.result(aborted), ctx) as WithResponse<T>;
        }
        const started = performance.now();
        const left = deadline - started;
        const cut = left < request.timeout;
        const result = scrub.result(
          await send(cut ? { ...request, timeout: Math.max(1, Math.ceil(left)) } : request),
        );
        ctx.expired = cut && result.kind === 'failure' && result.reason === 'timeout';
        if (post && mayHaveActed(result)) ctx.call.outcomeUnknown = true;
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
        const first = callResult<T>(result, ctx);
        // Data its guard doubts: zod, loaded now, judges it and words what is wrong.
        const done =
          first !== GUARD_DOUBTS
            ? first
            : (callResult<T>(result, { ...ctx, schemas: await loadSchemas() }) as WithResponse<T>);
        call.accepted?.(done.data, { header: (name) => done.response.headers[name] });
        return done;
      }
    } finally {
      if (--inFlight === 0) onDrained?.();
    }
  }

  return {
    request: <T>(call: ApiCall): APIPromise<T> =>
      new APIPromise<T>(traceCall(call.method, call.route.template, (trace) => execute<T>(call, trace))),
    async close() {
      closed = true;
      if (inFlight === 0) return;
      drained ??= new Promise<void>((resolve) => (onDrained = resolve));
      await drained;
    },
  };
}

function describeResult(result: AttemptResult): string {
  if (result.kind === 'response') return `HTTP ${result.status}`;
  if (result.kind === 'too_large') return `HTTP ${result.status}, body over ${result.limit} bytes`;
  if (result.reason === 'network') return `connection failed${result.code ? ` (${result.code})` : ''}`;
  return { timeout: 'timed out', refused: 'refused locally', aborted: 'aborted' }[result.reason];
}
