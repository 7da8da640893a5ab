import { FAIL, guards, runGuard, type SchemaName } from '../schemas/guards.js';
import type { Route } from '../internal/values.js';
import { ValidationError } from '../errors/base.js';
import { ClientClosedError } from '../errors/call.js';
import { APIPromise, type Answer, type WithResponse } from './api-promise.js';
import type { Sender, AttemptResult, AttemptRequest } from './attempt.js';
import type { Config } from './config.js';
import { mergeHeaders } from './headers.js';
import { KeyMemory, keyReused, type Echo } from './idempotency.js';
import { callResult, mayHaveActed, delayBeforeRetry, GUARD_DOUBTS, type ResultContext } from './outcome.js';
import { checkRequestOptions, type RequestOptions } from './request-options.js';
import type { Scrubber } from './scrub.js';
import { sleep } from './retry.js';
import { maskParams, traceCall, traced, type CallTrace } from './trace.js';
import { loadSchemas, snapshot, validate } from './check.js';

export type { RequestOptions } from './request-options.js';

// A schema by name: the resources that describe calls never name zod, which is bundled into the
// lazily loaded schemas file rather than installed. Each has a guard (`../schemas/guards.ts`).
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

// What a call without options reads: nothing to copy or check.
const NO_OPTIONS: RequestOptions = Object.freeze({});

function readOptions(given: RequestOptions | undefined, scrub: Scrubber): RequestOptions {
  if (given === undefined) return NO_OPTIONS;
  const options = snapshot(given, 'options');
  if (!options.ok)
    throw new ValidationError('request options', scrub.issues(options.issues), 'Nothing was sent.');
  const optionIssues = checkRequestOptions(options.value);
  if (optionIssues.length > 0)
    throw new ValidationError('request options', scrub.issues(optionIssues), 'Nothing was sent.');
  return options.value ?? NO_OPTIONS;
}

/** The call's parameters as read once (a snapshot), ready for their guard or their schema. */
function readParams(call: ApiCall, scrub: Scrubber): unknown {
  const params = snapshot(call.params);
  if (!params.ok)
    throw new ValidationError(call.paramsName, scrub.issues(params.issues), 'Nothing was sent.');
  return params.value;
}

/**
 * Creates the request function over a client's configuration. `openSender` is asked on the
 * first call, so the client can create its own Agent (or pick fetch) lazily.
 */
export function createTransport(config: Config, openSender: () => Promise<Sender>): Transport {
  const { logger, scrub } = config;
  const host = new URL(config.origin).host;
  // The headers every call sends, merged once per client; a call adds only its own.
  const fixedHeaders = mergeHeaders(config.baseHeaders, config.defaultHeaders, {
    authorization: `Bearer ${config.apiKey}`,
  });
  let send: Sender | undefined;

  // The client's headers (lowercase, merged once), the call's own, and a POST's body headers.
  function callHeaders(
    extra: Readonly<Record<string, string>> | undefined,
    key: string | undefined,
  ): Readonly<Record<string, string>> {
    if (key === undefined) return extra ? mergeHeaders(fixedHeaders, extra) : fixedHeaders;
    return mergeHeaders(fixedHeaders, extra, {
      'content-type': 'application/json',
      'x-idempotency-key': key,
    });
  }
  const keys = new KeyMemory();
  // Counted rather than kept in a set: close() only needs to know when the last call settles.
  let inFlight = 0;
  let drained: Promise<void> | undefined;
  let onDrained: (() => void) | undefined;
  let closed = false;

  // One async function per call: each await, and each async function awaited, is a hop of its own.
  async function execute<T>(call: ApiCall, trace: CallTrace | undefined): Promise<WithResponse<T>> {
    inFlight++;
    // Read now: a call made before close() is under way even while the schemas still load.
    const clientClosed = closed;
    try {
      // Settings the environment did not give when the client was built (a build step): said now.
      if (config.unset.length > 0)
        throw new ValidationError('Wallet configuration', config.unset, 'Nothing was sent.');
      // The first call starts loading the way of sending (undici's Agent) now; a call that then
      // fails validation has only loaded it early.
      if (send === undefined && !clientClosed) openSender().catch(() => undefined);
      const options = readOptions(call.options, scrub);
      const given = readParams(call, scrub);
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
        headers: callHeaders(options.headers, idempotencyKey),
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
          const result: AttemptResult = {
            kind: 'failure',
            reason: 'aborted',
            reached: false,
            code: undefined,
            cause: options.signal.reason,
          };
          ctx.call.attempts = n - 1;
          return callResult<T>(scrub.result(result), ctx) as WithResponse<T>;
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
        // A 2xx is final: no retry to weigh.
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
          trace?.retry(n + 1, wait, result, ctx.call);
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
        // An answer its guard doubts: zod, loaded now, judges it and words what is wrong (given
        // the schemas, finish always decides).
        const done =
          first !== GUARD_DOUBTS
            ? first
            : (callResult<T>(result, { ...ctx, schemas: await loadSchemas() }) as Answer<T>);
        call.accepted?.(done.data, done);
        return done;
      }
    } finally {
      if (--inFlight === 0) onDrained?.();
    }
  }

  return {
    request: <T>(call: ApiCall): APIPromise<T> =>
      new APIPromise<T>(
        traced()
          ? traceCall(call.method, call.route.template, (trace) => execute<T>(call, trace))
          : execute<T>(call, undefined),
      ),
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
  return result.reason === 'timeout'
    ? 'timed out'
    : result.reason === 'refused'
      ? 'refused locally'
      : 'aborted';
}
