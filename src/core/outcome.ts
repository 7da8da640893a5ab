import {
  API_ERROR_BY_STATUS,
  ApiError,
  ClientClosedError,
  ConnectionError,
  ConnectionTimeoutError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  RequestAbortedError,
  ResponseTooLargeError,
  ResponseValidationError,
  type ApiErrorInit,
} from '../errors/call.js';
import { ValidationError, type CallInfo, type ValidationIssue } from '../errors/base.js';
import type { Scrubber } from './scrub.js';
import type { AttemptResult, Operation, WithResponse } from './types.js';
import {
  advice,
  endpointNotFoundMessage,
  excerptOf,
  failureMessage,
  redirectMessage,
  refusedMessage,
  statusLine,
  tooLargeMessage,
  type CallWords,
} from './messages.js';
import { mismatches, replayMismatch } from './idempotency.js';
import { parseRetryAfter } from './retry.js';
import type { Schemas } from './check.js';

/** May the service have acted without a definitive answer: no answer, a 5xx, or a 2xx too large to read. */
export function mayHaveActed(result: AttemptResult): boolean {
  if (result.kind === 'failure') return result.reached && result.reason !== 'refused';
  // 303 See Other to a POST: the service did act, and says where the result is. An earlier try
  // (a merchant's RetryAgent), cut off or answered 5xx, may have acted whatever the last one says.
  if (result.status >= 500 || result.status === 303 || result.resent === true) return true;
  return result.kind === 'too_large' && result.status >= 200 && result.status <= 299;
}

/** What {@link callResult} needs besides the result. */
export interface ResultContext {
  /** The call's account so far: attempts and outcomeUnknown are updated as attempts end. */
  call: CallInfo;
  host: string;
  /** Every message built from the parameters passes through it (a reference may carry anything). */
  scrub: Scrubber;
  /** How the call describes itself in messages; asked only when a message is written. */
  operation: Operation;
  params: Record<string, unknown>;
  timeout: number;
  /** The call's totalTimeout, and whether it ended the last attempt (messages say which deadline). */
  totalTimeout: number;
  expired: boolean;
  /** Whether any attempt of the call so far may have reached the service (messages never say nothing did). */
  anyReached: boolean;
  /** Why the call ended before its retries ran out, for the message of an answer's error. */
  note: string | undefined;
  /** zod's schemas, which judge the answer's data. */
  schemas: Schemas;
}

// The words of a message, put together only when a call ends in one (the success path needs none).
function wordsOf(ctx: ResultContext): CallWords {
  const { operation, params, scrub } = ctx;
  const say = (words: ((p: Record<string, unknown>) => string) | undefined): string | undefined =>
    words === undefined ? undefined : scrub.text(words(params));
  return {
    ...ctx.call,
    host: ctx.host,
    anyReached: ctx.anyReached,
    summary: say(operation.summary),
    confirm: say(operation.confirm),
  };
}

/** The call's result from its last attempt's result, or the typed error it ends in. */
export function callResult<T>(result: AttemptResult, ctx: ResultContext): WithResponse<T> {
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
        // The last attempt only: an earlier one may have reached the service (a 503, then a refusal).
        throw new ValidationError(
          `request to ${call.endpoint}`,
          [{ path: '', message: refusedMessage(result.code) }],
          ctx.anyReached
            ? `The last attempt was not sent, but an earlier one may have reached the service.${advice(wordsOf(ctx), false)}`
            : 'Nothing was sent.',
          { ...call, cause: result.cause },
        );
    }
  }
  if (result.status >= 300 && result.status <= 399) {
    // Never followed: `see_other` for a 303 to a POST (the service acted), else `redirect_refused`.
    const message = redirectMessage(result.status, result.headers.location, wordsOf(ctx));
    const acted = result.status === 303 && call.idempotencyKey !== undefined;
    throw new ApiError(errorInit(result, call, message), acted ? 'see_other' : 'redirect_refused');
  }
  if (result.status < 200 || result.status > 299) throw apiErrorFor(result, call, ctx.note);
  if (result.undecoded !== undefined) {
    const issue = { path: '', message: `could not be read: ${result.undecoded}` };
    throw unreadable(call, result.status, result.text, [issue]);
  }
  const envelope = openEnvelope(result, call);
  const { schemas } = ctx;
  const checked = schemas.check(schemas[ctx.operation.dataSchema], envelope.data, 'data');
  if (!checked.ok) throw unreadable(call, result.status, envelope.body, checked.issues);
  const data = checked.value;
  const key = call.idempotencyKey;
  const { echoes } = ctx.operation;
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
      // An earlier attempt may have acted: this answer, not this request's, cannot say it did not.
      call.outcomeUnknown ? { confirm: wordsOf(ctx).confirm } : undefined,
    );
  }
  const response = {
    status: result.status,
    headers: result.headers,
    message: envelope.message,
    idempotencyKey: key,
    attempts: call.attempts,
  };
  return { data: data as T, response };
}

// A 2xx that cannot be read: the service answered, but what a POST did cannot be known.
function unreadable(
  call: CallInfo,
  status: number,
  body: unknown,
  issues: readonly ValidationIssue[],
): ResponseValidationError {
  const outcomeUnknown = call.idempotencyKey !== undefined;
  return new ResponseValidationError(call.endpoint, status, body, issues, { ...call, outcomeUnknown });
}

/** A response read to its last byte (already scrubbed of the key). */
type RawResponse = { status: number; headers: Record<string, string>; text: string };

type Body = { json: true; value: unknown } | { json: false; excerpt: string };

function parseBody(text: string): Body {
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false, excerpt: excerptOf(text) };
  }
}

// A server message is for people; a megabyte of it is not.
function serverMessage(value: unknown): string | undefined {
  const message = (value as { message?: unknown } | null)?.message;
  if (typeof message !== 'string' || message === '') return undefined;
  return message.length > 1_000 ? `${message.slice(0, 1_000)}…` : message;
}

function errorInit(
  raw: RawResponse,
  call: CallInfo,
  message: string,
  body = parseBody(raw.text),
): ApiErrorInit {
  return {
    ...call,
    status: raw.status,
    message,
    body: body.json ? body.value : body.excerpt,
    headers: raw.headers,
  };
}

/** The error for a non-2xx answer, its class chosen by status. */
function apiErrorFor(raw: RawResponse, call: CallInfo, note?: string): ApiError {
  const body = parseBody(raw.text);
  const status = raw.status;
  const fallback = statusLine(status);
  const said = body.json
    ? (serverMessage(body.value) ?? fallback)
    : body.excerpt
      ? `${fallback}: ${body.excerpt}`
      : fallback;
  const init = errorInit(raw, call, note === undefined ? said : `${said} (HTTP ${status}) ${note}`, body);
  // A 404 without the service's envelope is from something else on the way (a gateway, a wrong baseUrl).
  const value = body.json ? (body.value as { status?: unknown } | null) : null;
  const envelope =
    typeof value === 'object' && value !== null && !Array.isArray(value) && value.status === 'error';
  if (status === 404 && !envelope)
    return new NotFoundError(
      { ...init, message: endpointNotFoundMessage(init.endpoint, init.message) },
      'endpoint_not_found',
    );
  if (status === 429) {
    const ms = parseRetryAfter(raw.headers['retry-after']);
    return new RateLimitError(init, ms === undefined ? undefined : ms / 1000);
  }
  const Class = API_ERROR_BY_STATUS.get(status) ?? (status >= 500 ? InternalServerError : ApiError);
  return new Class(init);
}

// The envelope of a 2xx answer: the whole parsed body (for errors), its unchecked `data`, `message`.
type Envelope = { body: unknown; data: unknown; message: string | undefined };

// A 2xx's envelope: `status: "error"` is an ApiError, anything undocumented a ResponseValidationError.
function openEnvelope(raw: RawResponse, call: CallInfo): Envelope {
  const body = parseBody(raw.text);
  const invalid = (message: string): ResponseValidationError =>
    unreadable(call, raw.status, body.json ? body.value : raw.text.slice(0, 8_192), [{ path: '', message }]);
  if (!body.json) throw invalid('expected a JSON body');
  const envelope = body.value as { status?: unknown; data?: unknown; message?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw invalid('expected a JSON object');
  }
  if (envelope.status === 'error') {
    const message = serverMessage(envelope) ?? 'The service answered with an error envelope';
    throw new ApiError(errorInit(raw, call, message, body));
  }
  if (envelope.status !== 'success') throw invalid('expected status "success" or "error"');
  return {
    body: envelope,
    data: envelope.data,
    message: typeof envelope.message === 'string' ? envelope.message : undefined,
  };
}
