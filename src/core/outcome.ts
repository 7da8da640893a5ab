/**
 * From attempts to what the merchant sees: which attempt results may mean the service acted, which are
 * worth another attempt, and the one result or typed error a call ends in.
 */
import { ValidationError, type CallInfo } from '../errors/base.js';
import {
  ClientClosedError,
  ConnectionError,
  ConnectionTimeoutError,
  RequestAbortedError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../errors/call.js';
import { Answer } from './api-promise.js';
import type { AttemptResult } from './attempt.js';
import type { Logger } from './trace.js';
import type { Scrubber } from './scrub.js';
import { failureMessage, redirectMessage, tooLargeMessage, type CallWords } from './messages.js';
import { apiErrorFor, openEnvelope, redirectError } from './response.js';
import { mismatches, replayMismatch, type Echo } from './idempotency.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './retry.js';
import { unchecked, type Schemas } from './check.js';
import { FAIL, guards } from '../schemas/guards.js';

/**
 * What {@link callResult} answers for a 2xx whose data its guard doubts while zod is not loaded: load
 * the schemas and ask again with them, for zod to judge the data and word what is wrong.
 */
export const GUARD_DOUBTS: unique symbol = Symbol('guard doubts');

/**
 * May the service have acted on this attempt without saying so definitively? A request that may
 * have been written and got no answer, a 5xx, or a 2xx too large to read. 4xx, 408 and 429 are
 * definitive refusals; a failure that provably never left (DNS, refused, local) is not.
 */
export function mayHaveActed(result: AttemptResult): boolean {
  if (result.kind === 'failure') return result.reached && result.reason !== 'refused';
  // 303 See Other to a POST: the service did act, and says where the result is.
  if (result.status >= 500 || result.status === 303) return true;
  return result.kind === 'too_large' && result.status >= 200 && result.status <= 299;
}

/** What bounds the wait before another attempt. */
export interface RetryLimits {
  /** The longest `Retry-After` waited out, in ms. */
  maxRetryAfter: number;
  /** Milliseconds left of the call's `totalTimeout`. */
  left: number;
}

/**
 * What follows an attempt: a wait (ms) before the next one, or the end of the call, with a note for
 * the message when it ends early (a `Retry-After` too long, no time left). Never a wait past the
 * deadline: a wait that would reach it ends the call now with this result's error.
 */
export function delayBeforeRetry(
  result: AttemptResult,
  n: number,
  logger: Logger,
  limits: RetryLimits,
): { wait: number } | { stop: string | undefined } {
  const retryable =
    result.kind === 'failure'
      ? result.reason === 'timeout' || result.reason === 'network'
      : result.kind === 'response' && isRetryableStatus(result.status);
  if (!retryable) return { stop: undefined };
  const left = Math.max(0, Math.round(limits.left));
  const asked = result.kind === 'response' ? parseRetryAfter(result.head.get('retry-after')) : undefined;
  if (asked !== undefined) {
    const seconds = `${Math.round(asked / 1000)} s`;
    const why =
      asked > limits.maxRetryAfter
        ? `longer than maxRetryAfter (${limits.maxRetryAfter} ms)`
        : asked >= left
          ? `past the call's totalTimeout (${left} ms left)`
          : undefined;
    if (why === undefined) return { wait: asked };
    // Retrying sooner than the service asked would only be refused again; let the caller decide.
    const note = `The service asked to wait ${seconds} (Retry-After), ${why}: not retried.`;
    logger.log('warn', note);
    return { stop: note };
  }
  const wait = backoffDelay(n);
  return wait < left
    ? { wait }
    : { stop: `No time was left in the call's totalTimeout for another attempt.` };
}

/** What {@link callResult} needs besides the result. */
export interface ResultContext {
  /** The call's account so far: attempts and outcomeUnknown are updated as attempts end. */
  call: CallInfo;
  host: string;
  /** Every message built from the parameters passes through it (a reference may carry anything). */
  scrub: Scrubber;
  /** How the call describes itself in messages; asked only when a message is written. */
  description: {
    summary?: ((params: Record<string, unknown>) => string) | undefined;
    confirm?: ((params: Record<string, unknown>) => string) | undefined;
    echoes?: readonly Echo[] | undefined;
  };
  params: Record<string, unknown>;
  timeout: number;
  /** The call's totalTimeout, and whether it ended the last attempt (messages say which deadline). */
  totalTimeout: number;
  expired: boolean;
  /** Why the call ended before its retries ran out, for the message of an answer's error. */
  note: string | undefined;
  /** The schema the answer's data must meet, by name: its guard runs first. */
  dataSchema: keyof typeof guards;
  /** zod's schemas, once loaded, or why they did not load (see {@link GUARD_DOUBTS}). */
  schemas?: Schemas | Error;
}

// The words of a message, put together only when a call ends in one (the success path needs none).
function wordsOf(ctx: ResultContext): CallWords {
  const { description, params, scrub } = ctx;
  const say = (words: ((p: Record<string, unknown>) => string) | undefined): string | undefined =>
    words === undefined ? undefined : scrub.text(words(params));
  return {
    ...ctx.call,
    host: ctx.host,
    summary: say(description.summary),
    confirm: say(description.confirm),
  };
}

/**
 * The call's result from its last attempt's result, or the typed error it ends in; or
 * {@link GUARD_DOUBTS}, only while `ctx.schemas` is not given.
 */
export function callResult<T>(result: AttemptResult, ctx: ResultContext): Answer<T> | typeof GUARD_DOUBTS {
  const call: CallInfo = { ...ctx.call };
  if (result.kind === 'too_large') {
    const { status, head, limit } = result;
    throw new ResponseTooLargeError({
      ...call,
      status,
      headers: head.all(),
      limit,
      message: tooLargeMessage(status, limit, wordsOf(ctx)),
    });
  }
  if (result.kind === 'failure') {
    const message = failureMessage(
      result,
      wordsOf(ctx),
      ctx.timeout,
      ctx.expired ? ctx.totalTimeout : undefined,
    );
    const init = { ...call, message, cause: result.cause };
    switch (result.reason) {
      case 'aborted':
        throw new RequestAbortedError(init);
      case 'timeout':
        throw new ConnectionTimeoutError(init, ctx.timeout);
      case 'network':
        throw new ConnectionError(init);
      case 'refused':
        if (result.code === 'UND_ERR_CLOSED') throw new ClientClosedError(init);
        throw new ValidationError(
          `request to ${call.endpoint}`,
          [
            {
              path: '',
              message:
                result.code === 'NotCapable'
                  ? 'refused by Deno, which was not given network access: run with --allow-env --allow-net'
                  : `refused by the HTTP layer before sending${result.code ? ` (${result.code})` : ''}`,
            },
          ],
          'Nothing was sent.',
          { ...call, cause: result.cause },
        );
    }
  }
  if (result.status >= 300 && result.status <= 399) {
    const message = redirectMessage(result.status, result.head.get('location'), wordsOf(ctx));
    throw redirectError(result, call, message);
  }
  if (result.status < 200 || result.status > 299) throw apiErrorFor(result, call, ctx.note);
  if (result.undecoded !== undefined) {
    // A 2xx whose body cannot be read: the service answered, but what it did cannot be known.
    const issue = { path: '', message: `could not be read: ${result.undecoded}` };
    throw new ResponseValidationError(call.endpoint, result.status, result.text, [issue], {
      ...call,
      outcomeUnknown: call.idempotencyKey !== undefined,
    });
  }
  const envelope = openEnvelope(result, call);
  let data = guards[ctx.dataSchema](envelope.data);
  if (data === FAIL) {
    const { schemas } = ctx;
    if (schemas === undefined) return GUARD_DOUBTS;
    const checked =
      schemas instanceof Error
        ? { ok: false as const, issues: [unchecked('data', schemas)] }
        : schemas.check(schemas[ctx.dataSchema], envelope.data, 'data');
    if (!checked.ok) {
      throw new ResponseValidationError(call.endpoint, result.status, envelope.body, checked.issues, {
        ...call,
        outcomeUnknown: call.idempotencyKey !== undefined,
      });
    }
    data = checked.value;
  }
  const key = call.idempotencyKey;
  const { echoes } = ctx.description;
  let differences = key !== undefined && echoes ? mismatches(echoes, ctx.params, data) : [];
  const { scrub } = ctx;
  // The answer was scrubbed of the key: a value sent holding part of it (a reference) comes back
  // scrubbed, and is compared as scrubbed, never taken for another request's.
  if (differences.length > 0)
    differences = mismatches(echoes!, scrub.value(ctx.params) as Record<string, unknown>, data);
  if (differences.length > 0) {
    throw replayMismatch(
      call.endpoint,
      scrub.text(key!),
      differences.map((d) => scrub.text(d)),
      data,
      call.attempts,
    );
  }
  return new Answer(
    data as T,
    result.status,
    result.head,
    envelope.message,
    call.idempotencyKey,
    call.attempts,
  );
}
