import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type * as SchemaModule from '../schemas/index.js';
import {
  ConnectionError,
  ConnectionTimeoutError,
  RequestAbortedError,
  ResponseValidationError,
  ValidationError,
  type ValidationIssue,
} from '../errors.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { attempt, type AttemptOutcome, type RawResponse } from './attempt.js';
import { maxRetriesProblem, timeoutProblem, type Config } from './config.js';
import { checkHeaders } from './headers.js';
import { maskPersonalData } from './logger.js';
import { apiErrorFor, openEnvelope, type ResponseContext } from './response.js';
import { traceCall, type CallTrace } from './trace.js';
import { backoffDelay, isRetryableStatus, MAX_RETRY_AFTER_MS, parseRetryAfter, sleep } from './retry.js';

type Schemas = typeof SchemaModule;

/** Per-call options, the last argument of every API method. Each overrides the client's for one call. */
export interface RequestOptions {
  /**
   * The `X-Idempotency-Key` of a POST. Reuse it when you retry a call yourself (after a crash or
   * a `ConnectionError`) and the service answers with the original result instead of acting twice.
   * @default a new UUID per call, the same across the SDK's own retries
   */
  idempotencyKey?: string;
  /**
   * Milliseconds allowed for one attempt, from connecting to the last byte of the body.
   * @default the client's `timeout` (30000)
   */
  timeout?: number;
  /**
   * Retries after a connection failure, a timeout, 408, 429 or 5xx.
   * @default the client's `maxRetries` (2)
   */
  maxRetries?: number;
  /**
   * Cancels the call, including a wait between retries. Never retried.
   * @default undefined
   */
  signal?: AbortSignal;
  /**
   * Extra headers for this call.
   * @default {}
   */
  headers?: Record<string, string>;
}

/** One API call as a resource describes it; the transport does the rest. */
export interface ApiCall {
  method: 'GET' | 'POST';
  /** What the parameters are called in messages, for example `dispatch parameters`. */
  what: string;
  params: unknown;
  paramsSchema: (schemas: Schemas) => z.ZodType;
  /** The path with its parameters as `{names}`, for tracing: `/v1/charges/verify/{reference}`. */
  template: string;
  /** The path after the base URL, built from the checked parameters. */
  path: (params: Record<string, unknown>) => string;
  dataSchema: (schemas: Schemas) => z.ZodType;
  options: RequestOptions | undefined;
}

/** The narrow function resources depend on: send a call, get its typed data. */
export type RequestFn = <T>(call: ApiCall) => APIPromise<T>;

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'idempotencyKey',
  'timeout',
  'maxRetries',
  'signal',
  'headers',
]);

let schemas: Promise<Schemas> | undefined;
function loadSchemas(): Promise<Schemas> {
  schemas ??= import('../schemas/index.js').catch((error: unknown) => {
    schemas = undefined;
    throw error;
  });
  return schemas;
}

function checkOptions(options: RequestOptions | undefined): ValidationIssue[] {
  if (options === undefined) return [];
  if (typeof options !== 'object' || options === null)
    return [{ path: 'options', message: 'must be an object' }];
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) issues.push({ path: `options.${name}`, message: 'is not a request option' });
  }
  const { idempotencyKey, timeout, maxRetries, signal, headers } = options;
  if (
    idempotencyKey !== undefined &&
    (typeof idempotencyKey !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
  ) {
    issues.push({ path: 'options.idempotencyKey', message: 'must be 1 to 255 visible ASCII characters' });
  }
  const timeoutIssue = timeout === undefined ? undefined : timeoutProblem(timeout);
  if (timeoutIssue) issues.push({ path: 'options.timeout', message: timeoutIssue });
  const retriesIssue = maxRetries === undefined ? undefined : maxRetriesProblem(maxRetries);
  if (retriesIssue) issues.push({ path: 'options.maxRetries', message: retriesIssue });
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    issues.push({ path: 'options.signal', message: 'must be an AbortSignal' });
  }
  if (headers !== undefined) issues.push(...checkHeaders(headers, 'options.headers'));
  return issues;
}

/**
 * Creates the request function over a client's configuration. `getDispatcher` is asked on each
 * call, so the client can create its own `Agent` lazily and refuse calls after `close()`.
 */
export function createTransport(config: Config, getDispatcher: () => Promise<Dispatcher>): RequestFn {
  const { logger } = config;

  async function execute<T>(call: ApiCall, trace: CallTrace | undefined): Promise<WithResponse<T>> {
    const options = call.options ?? {};
    const optionIssues = checkOptions(call.options);
    if (optionIssues.length > 0)
      throw new ValidationError('request options', optionIssues, 'Nothing was sent.');
    const s = await loadSchemas();
    const checked = s.check(call.paramsSchema(s), call.params);
    if (!checked.ok) throw new ValidationError(call.what, checked.issues, 'Nothing was sent.');
    const params = checked.value as Record<string, unknown>;
    const route = call.path(params);
    const path = `${config.basePath}${route}`;
    const endpoint = `${call.method} ${route}`;
    const idempotencyKey = call.method === 'POST' ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const headers: Record<string, string> = {
      authorization: `Bearer ${config.apiKey}`,
      accept: 'application/json',
      'user-agent': config.userAgent,
      ...config.defaultHeaders,
      ...options.headers,
    };
    if (idempotencyKey !== undefined) {
      headers['content-type'] = 'application/json';
      headers['x-idempotency-key'] = idempotencyKey;
    }
    const body = call.method === 'POST' ? JSON.stringify(params) : undefined;
    const timeout = options.timeout ?? config.timeout;
    const maxAttempts = (options.maxRetries ?? config.maxRetries) + 1;
    const context: ResponseContext = { endpoint, idempotencyKey };
    const dispatcher = await getDispatcher();
    if (logger.enabled('debug')) {
      logger.log('debug', `${endpoint} sending`, { idempotencyKey, params: maskPersonalData(params) });
    }

    for (let n = 1; ; n++) {
      if (options.signal?.aborted)
        throw new RequestAbortedError(endpoint, idempotencyKey, options.signal.reason);
      const started = performance.now();
      const outcome = await attempt(
        dispatcher,
        { origin: config.origin, path, method: call.method, headers, body },
        timeout,
        options.signal,
      );
      const elapsed = Math.round(performance.now() - started);
      logAttempt(outcome, endpoint, n, maxAttempts, elapsed);
      const wait = n < maxAttempts ? retryDelay(outcome, n) : undefined;
      if (wait !== undefined) {
        trace?.retry(n + 1, wait, outcome, idempotencyKey);
        logger.log(
          'info',
          `${endpoint}: retrying in ${wait} ms (${describeOutcome(outcome)}), attempt ${n + 1}/${maxAttempts}`,
        );
        try {
          await sleep(wait, options.signal);
        } catch (reason) {
          throw new RequestAbortedError(endpoint, idempotencyKey, reason);
        }
        continue;
      }
      return finish<T>(outcome, { ...context, attempts: n, timeout, s, dataSchema: call.dataSchema(s) });
    }
  }

  function logAttempt(outcome: AttemptOutcome, endpoint: string, n: number, max: number, ms: number): void {
    if (logger.enabled('debug'))
      logger.log('debug', `${endpoint} → ${describeOutcome(outcome)} in ${ms} ms (attempt ${n}/${max})`);
  }

  function finish<T>(
    outcome: AttemptOutcome,
    ctx: ResponseContext & { attempts: number; timeout: number; s: Schemas; dataSchema: z.ZodType },
  ): WithResponse<T> {
    if (outcome.kind === 'response') return readSuccess<T>(scrub(outcome.response), ctx);
    if (outcome.kind === 'aborted')
      throw new RequestAbortedError(ctx.endpoint, ctx.idempotencyKey, outcome.cause);
    const failure = {
      endpoint: ctx.endpoint,
      idempotencyKey: ctx.idempotencyKey,
      attempts: ctx.attempts,
      cause: outcome.cause,
    };
    throw outcome.kind === 'timeout'
      ? new ConnectionTimeoutError(failure, ctx.timeout)
      : new ConnectionError(failure);
  }

  function readSuccess<T>(
    raw: RawResponse,
    ctx: ResponseContext & { attempts: number; s: Schemas; dataSchema: z.ZodType },
  ): WithResponse<T> {
    if (raw.status < 200 || raw.status > 299) throw apiErrorFor(raw, ctx);
    const envelope = openEnvelope(raw, ctx);
    const checked = ctx.s.check(ctx.dataSchema, envelope.data, 'data');
    if (!checked.ok)
      throw new ResponseValidationError(ctx.endpoint, raw.status, envelope.body, checked.issues);
    return {
      data: checked.value as T,
      response: {
        status: raw.status,
        headers: raw.headers,
        message: envelope.message,
        idempotencyKey: ctx.idempotencyKey,
        attempts: ctx.attempts,
      },
    };
  }

  // A server that echoes the request must not carry the key into an error, a log or a report.
  function scrub(raw: RawResponse): RawResponse {
    const key = config.apiKey;
    const leaks = raw.text.includes(key) || Object.values(raw.headers).some((v) => v.includes(key));
    if (!leaks) return raw;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw.headers))
      headers[name] = value.replaceAll(key, '[redacted]');
    return { status: raw.status, headers, text: raw.text.replaceAll(key, '[redacted]') };
  }

  function retryDelay(outcome: AttemptOutcome, n: number): number | undefined {
    if (outcome.kind === 'timeout' || outcome.kind === 'network') return backoffDelay(n);
    if (outcome.kind !== 'response' || !isRetryableStatus(outcome.response.status)) return undefined;
    const asked = parseRetryAfter(outcome.response.headers['retry-after']);
    if (asked === undefined) return backoffDelay(n);
    if (asked <= MAX_RETRY_AFTER_MS) return asked;
    // Retrying sooner than the service asked would only be refused again; let the caller decide.
    logger.log('warn', `The service asked to wait ${Math.round(asked / 1000)} s; not retrying automatically`);
    return undefined;
  }

  return <T>(call: ApiCall): APIPromise<T> =>
    new APIPromise<T>(traceCall(call.method, call.template, (trace) => execute<T>(call, trace)));
}

function describeOutcome(outcome: AttemptOutcome): string {
  if (outcome.kind === 'response') return `HTTP ${outcome.response.status}`;
  if (outcome.kind === 'network')
    return `connection failed: ${(outcome.cause as Error | undefined)?.message ?? 'unknown'}`;
  return outcome.kind === 'timeout' ? 'timed out' : 'aborted';
}
