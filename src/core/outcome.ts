/**
 * From attempts to what the merchant sees: which outcomes may mean the service acted, which are
 * worth another attempt, and the one result or typed error a call ends in.
 */
import type { z } from 'zod';
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
import type { AttemptOutcome } from './attempt.js';
import type { Logger } from './logger.js';
import { failureMessage, tooLargeMessage, type CallWords } from './messages.js';
import { apiErrorFor, openEnvelope } from './response.js';
import { backoffDelay, isRetryableStatus, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry.js';
import type { Checked } from '../schemas/index.js';

/**
 * May the service have acted on this attempt without saying so definitively? A request that may
 * have been written and got no answer, a 5xx, or a 2xx too large to read. 4xx, 408 and 429 are
 * definitive refusals; a failure that provably never left (DNS, refused, local) is not.
 */
export function mayHaveActed(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'failure') return outcome.reached && outcome.reason !== 'refused';
  if (outcome.status >= 500) return true;
  return outcome.kind === 'too_large' && outcome.status >= 200 && outcome.status <= 299;
}

/** Milliseconds to wait before another attempt, or undefined when this outcome is final. */
export function retryDelay(outcome: AttemptOutcome, n: number, logger: Logger): number | undefined {
  if (outcome.kind === 'failure') {
    return outcome.reason === 'timeout' || outcome.reason === 'network' ? backoffDelay(n) : undefined;
  }
  if (outcome.kind !== 'response' || !isRetryableStatus(outcome.status)) return undefined;
  const asked = parseRetryAfter(outcome.headers['retry-after']);
  if (asked === undefined) return backoffDelay(n);
  if (asked <= MAX_RETRY_AFTER_MS) return asked;
  // Retrying sooner than the service asked would only be refused again; let the caller decide.
  logger.log('warn', `The service asked to wait ${Math.round(asked / 1000)} s; not retrying automatically`);
  return undefined;
}

/** What {@link finish} needs besides the outcome. */
export interface Finish {
  words: CallWords;
  timeout: number;
  check: (schema: z.ZodType, value: unknown) => Checked;
  dataSchema: z.ZodType;
}

/** The call's result from its last outcome, or the typed error it ends in. */
export function finish<T>(outcome: AttemptOutcome, ctx: Finish): WithResponse<T> {
  const words = ctx.words;
  const call: CallInfo = {
    endpoint: words.endpoint,
    attempts: words.attempts,
    idempotencyKey: words.idempotencyKey,
    outcomeUnknown: words.outcomeUnknown,
  };
  if (outcome.kind === 'too_large') {
    const { status, headers, limit } = outcome;
    throw new ResponseTooLargeError({
      ...call,
      status,
      headers,
      limit,
      message: tooLargeMessage(status, limit, words),
    });
  }
  if (outcome.kind === 'failure') {
    const message = failureMessage(outcome, words, ctx.timeout);
    const init = { ...call, message, cause: outcome.cause };
    switch (outcome.reason) {
      case 'aborted':
        throw new RequestAbortedError(init);
      case 'timeout':
        throw new ConnectionTimeoutError(init, ctx.timeout);
      case 'network':
        throw new ConnectionError(init);
      case 'refused':
        if (outcome.code === 'UND_ERR_CLOSED') throw new ClientClosedError(init);
        throw new ValidationError(
          `request to ${words.endpoint}`,
          [
            {
              path: '',
              message: `refused by the HTTP layer before sending${outcome.code ? ` (${outcome.code})` : ''}`,
            },
          ],
          'Nothing was sent.',
          { ...call, cause: outcome.cause },
        );
    }
  }
  if (outcome.status < 200 || outcome.status > 299) throw apiErrorFor(outcome, call);
  const envelope = openEnvelope(outcome, call);
  const checked = ctx.check(ctx.dataSchema, envelope.data);
  if (!checked.ok) {
    throw new ResponseValidationError(words.endpoint, outcome.status, envelope.body, checked.issues, {
      ...call,
      outcomeUnknown: call.idempotencyKey !== undefined,
    });
  }
  return {
    data: checked.value as T,
    response: {
      status: outcome.status,
      headers: outcome.headers,
      message: envelope.message,
      idempotencyKey: call.idempotencyKey,
      attempts: call.attempts,
    },
  };
}
