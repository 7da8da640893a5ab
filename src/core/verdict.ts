/**
 * From attempts to what the merchant sees: which attempt results may mean the service acted, which are
 * worth another attempt, and the one result or typed error a call ends in.
 */
import type { ZodMiniType } from 'zod/mini';
import {
  ClientClosedError,
  ConnectionError,
  ConnectionTimeoutError,
  RequestAbortedError,
  ResponseTooLargeError,
  ResponseValidationError,
  ValidationError,
  type CallInfo,
} from '../errors.js';
import type { WithResponse } from './api-promise.js';
import type { AttemptResult } from './attempt.js';
import type { Logger } from './logger.js';
import type { Scrubber } from './scrub.js';
import { failureMessage, tooLargeMessage, type CallWords } from './messages.js';
import { apiErrorFor, openEnvelope } from './response.js';
import { backoffDelay, isRetryableStatus, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry.js';
import type { Checked } from '../schemas/index.js';

/**
 * May the service have acted on this attempt without saying so definitively? A request that may
 * have been written and got no answer, a 5xx, or a 2xx too large to read. 4xx, 408 and 429 are
 * definitive refusals; a failure that provably never left (DNS, refused, local) is not.
 */
export function mayHaveActed(result: AttemptResult): boolean {
  if (result.kind === 'failure') return result.reached && result.reason !== 'refused';
  if (result.status >= 500) return true;
  return result.kind === 'too_large' && result.status >= 200 && result.status <= 299;
}

/** Milliseconds to wait before another attempt, or undefined when this result is final. */
export function delayBeforeRetry(result: AttemptResult, n: number, logger: Logger): number | undefined {
  if (result.kind === 'failure') {
    return result.reason === 'timeout' || result.reason === 'network' ? backoffDelay(n) : undefined;
  }
  if (result.kind !== 'response' || !isRetryableStatus(result.status)) return undefined;
  const asked = parseRetryAfter(result.headers['retry-after']);
  if (asked === undefined) return backoffDelay(n);
  if (asked <= MAX_RETRY_AFTER_MS) return asked;
  // Retrying sooner than the service asked would only be refused again; let the caller decide.
  logger.log('warn', `The service asked to wait ${Math.round(asked / 1000)} s; not retrying automatically`);
  return undefined;
}

/** What {@link finish} needs besides the result. */
export interface Finish {
  /** The call's account so far: attempts and outcomeUnknown are updated as attempts end. */
  call: CallInfo;
  host: string;
  /** Every message built from the parameters passes through it (a reference may carry anything). */
  scrub: Scrubber;
  /** How the call describes itself in messages; asked only when a message is written. */
  wording: {
    summary?: ((params: Record<string, unknown>) => string) | undefined;
    confirm?: ((params: Record<string, unknown>) => string) | undefined;
  };
  params: Record<string, unknown>;
  timeout: number;
  schemas: { check(schema: ZodMiniType, value: unknown, prefix?: string): Checked };
  dataSchema: ZodMiniType;
}

// The words of a message, put together only when a call ends in one (the success path needs none).
function wordsOf(ctx: Finish): CallWords {
  const { wording, params, scrub } = ctx;
  const say = (words: ((p: Record<string, unknown>) => string) | undefined): string | undefined =>
    words === undefined ? undefined : scrub.text(words(params));
  return { ...ctx.call, host: ctx.host, summary: say(wording.summary), confirm: say(wording.confirm) };
}

/** The call's result from its last attempt's result, or the typed error it ends in. */
export function finish<T>(result: AttemptResult, ctx: Finish): WithResponse<T> {
  const call: CallInfo = { ...ctx.call };
  if (result.kind === 'too_large') {
    const { status, headers, limit } = result;
    throw new ResponseTooLargeError({
      ...call,
      status,
      headers,
      limit,
      message: tooLargeMessage(status, limit, wordsOf(ctx)),
    });
  }
  if (result.kind === 'failure') {
    const message = failureMessage(result, wordsOf(ctx), ctx.timeout);
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
              message: `refused by the HTTP layer before sending${result.code ? ` (${result.code})` : ''}`,
            },
          ],
          'Nothing was sent.',
          { ...call, cause: result.cause },
        );
    }
  }
  if (result.status < 200 || result.status > 299) throw apiErrorFor(result, call);
  const envelope = openEnvelope(result, call);
  const checked = ctx.schemas.check(ctx.dataSchema, envelope.data, 'data');
  if (!checked.ok) {
    throw new ResponseValidationError(call.endpoint, result.status, envelope.body, checked.issues, {
      ...call,
      outcomeUnknown: call.idempotencyKey !== undefined,
    });
  }
  return {
    data: checked.value as T,
    response: {
      status: result.status,
      headers: result.headers,
      message: envelope.message,
      idempotencyKey: call.idempotencyKey,
      attempts: call.attempts,
    },
  };
}
