import type { z } from 'zod';
import type * as SchemaModule from '../schemas/index.js';
import { ClientClosedError, ValidationError, type CallInfo } from '../errors.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { Attempt, AttemptOutcome, AttemptRequest } from './attempt.js';
import type { Config } from './config.js';
import { mergeHeaders } from './headers.js';
import { maskParams } from './logger.js';
import { finish, mayHaveActed, retryDelay, type Finish } from './outcome.js';
import { checkRequestOptions, type RequestOptions } from './request-options.js';
import type { Scrubber } from './scrub.js';
import { sleep } from './retry.js';

export type { RequestOptions } from './request-options.js';

type Schemas = typeof SchemaModule;

/** One API call as a resource describes it; the transport does the rest. */
export interface ApiCall {
  method: 'GET' | 'POST';
  /** What the parameters are called in messages, for example `dispatch parameters`. */
  what: string;
  /** The path template, for example `/v1/charges/verify/{reference}`: for tracing, never personal data. */
  route: string;
  params: unknown;
  paramsSchema: (schemas: Schemas) => z.ZodType;
  /** The path after the base URL, built from the checked parameters. */
  path: (params: Record<string, unknown>) => string;
  dataSchema: (schemas: Schemas) => z.ZodType;
  options: RequestOptions | undefined;
  /** What the call is, in a merchant's words, for messages: `refund of ₦4,500.00 (450000 Kobo) on order_1042`. */
  summary?: (params: Record<string, unknown>) => string;
  /** How to confirm an unknown outcome, for example `charges.verify('order_1042')`; none for a refund. */
  confirm?: (params: Record<string, unknown>) => string;
}

/** The narrow function resources depend on: send a call, get its typed data. */
export type RequestFn = <T>(call: ApiCall) => APIPromise<T>;

/** The request function, and a close that refuses new calls and waits for those under way. */
export interface Transport {
  request: RequestFn;
  close(): Promise<void>;
}

let schemas: Promise<Schemas> | undefined;
function loadSchemas(): Promise<Schemas> {
  schemas ??= import('../schemas/index.js').catch((error: unknown) => {
    schemas = undefined;
    throw error;
  });
  return schemas;
}

async function validate(call: ApiCall, s: Schemas, scrub: Scrubber): Promise<Record<string, unknown>> {
  const optionIssues = checkRequestOptions(call.options);
  if (optionIssues.length > 0)
    throw new ValidationError('request options', scrub.issues(optionIssues), 'Nothing was sent.');
  let checked: ReturnType<Schemas['check']>;
  try {
    checked = s.check(call.paramsSchema(s), call.params);
  } catch (error) {
    // A Proxy or getter that throws while being read: the parameters cannot be sent as JSON.
    const issue = { path: '', message: `could not be read (${(error as Error | null)?.name ?? 'error'})` };
    throw new ValidationError(call.what, [issue], 'Nothing was sent.');
  }
  if (!checked.ok) throw new ValidationError(call.what, scrub.issues(checked.issues), 'Nothing was sent.');
  return Promise.resolve(checked.value as Record<string, unknown>);
}

/**
 * Creates the request function over a client's configuration. `openAttempt` is asked once per
 * call, so the client can create its own Agent (or pick fetch) lazily.
 */
export function createTransport(config: Config, openAttempt: () => Promise<Attempt>): Transport {
  const { logger, scrub } = config;
  const host = new URL(config.origin).host;
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  async function execute<T>(call: ApiCall, refused: boolean): Promise<WithResponse<T>> {
    const s = await loadSchemas();
    const params = await validate(call, s, scrub);
    const options = call.options ?? {};
    const route = call.path(params);
    const endpoint = `${call.method} ${route}`;
    const post = call.method === 'POST';
    const idempotencyKey = post ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    if (refused)
      throw new ClientClosedError({ endpoint, idempotencyKey, attempts: 0, outcomeUnknown: false });
    const own: Record<string, string> = { authorization: `Bearer ${config.apiKey}` };
    if (post) {
      own['content-type'] = 'application/json';
      own['x-idempotency-key'] = idempotencyKey!;
    }
    const request: AttemptRequest = {
      url: `${config.origin}${config.basePath}${route}`,
      origin: config.origin,
      path: `${config.basePath}${route}`,
      method: call.method,
      headers: mergeHeaders(config.baseHeaders, config.defaultHeaders, options.headers, own),
      body: post ? JSON.stringify(params) : undefined,
      timeout: options.timeout ?? config.timeout,
      signal: options.signal,
    };
    const maxAttempts = (options.maxRetries ?? config.maxRetries) + 1;
    const ctx: Finish = {
      words: {
        endpoint,
        host,
        summary: call.summary?.(params),
        confirm: call.confirm?.(params),
        idempotencyKey,
        attempts: 0,
        outcomeUnknown: false,
      },
      timeout: request.timeout,
      check: (schema, value) => s.check(schema, value, 'data'),
      dataSchema: call.dataSchema(s),
    };
    if (logger.enabled('debug'))
      logger.log('debug', `${endpoint} sending`, { idempotencyKey, params: maskParams(params) });
    const send = await openAttempt();
    let unknown = false;

    for (let n = 1; ; n++) {
      if (options.signal?.aborted) {
        const outcome: AttemptOutcome = {
          kind: 'failure',
          reason: 'aborted',
          reached: false,
          code: undefined,
          cause: options.signal.reason,
        };
        return finish<T>(outcome, {
          ...ctx,
          words: { ...ctx.words, attempts: n - 1, outcomeUnknown: unknown },
        });
      }
      const started = performance.now();
      const outcome = scrub.outcome(await send(request));
      if (post && mayHaveActed(outcome)) unknown = true;
      if (logger.enabled('debug')) {
        const ms = Math.round(performance.now() - started);
        logger.log(
          'debug',
          `${endpoint} → ${describeOutcome(outcome)} in ${ms} ms (attempt ${n}/${maxAttempts})`,
        );
      }
      const wait = n < maxAttempts ? retryDelay(outcome, n, logger) : undefined;
      if (wait !== undefined) {
        logger.log(
          'info',
          `${endpoint}: retrying in ${wait} ms (${describeOutcome(outcome)}), attempt ${n + 1}/${maxAttempts}`,
        );
        // An abort during the wait is reported by the loop's first check, with the call's account.
        await sleep(wait, options.signal).catch(() => undefined);
        continue;
      }
      const call: CallInfo = { endpoint, attempts: n, idempotencyKey, outcomeUnknown: unknown };
      return finish<T>(outcome, { ...ctx, words: { ...ctx.words, ...call } });
    }
  }

  function request<T>(call: ApiCall): APIPromise<T> {
    const result = execute<T>(call, closed);
    inFlight.add(result);
    const forget = (): void => void inFlight.delete(result);
    result.then(forget, forget);
    return new APIPromise<T>(result);
  }

  return {
    request,
    async close() {
      closed = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

function describeOutcome(outcome: AttemptOutcome): string {
  if (outcome.kind === 'response') return `HTTP ${outcome.status}`;
  if (outcome.kind === 'too_large') return `HTTP ${outcome.status}, body over ${outcome.limit} bytes`;
  if (outcome.reason === 'network') return `connection failed${outcome.code ? ` (${outcome.code})` : ''}`;
  return outcome.reason === 'timeout'
    ? 'timed out'
    : outcome.reason === 'refused'
      ? 'refused locally'
      : 'aborted';
}
