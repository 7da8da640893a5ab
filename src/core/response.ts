import type { CallInfo } from '../errors/base.js';
import {
  API_ERROR_BY_STATUS,
  ApiError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  type ApiErrorInit,
} from '../errors/call.js';
import type { ResponseHead } from './api-promise.js';
import { parseRetryAfter } from './retry.js';

/** A response read to its last byte (already scrubbed of the key). */
export interface RawResponse {
  status: number;
  /** Its headers: the object of all of them is built only for an error that carries it. */
  head: ResponseHead;
  text: string;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
// A server message is for people; a megabyte of it is not.
const MAX_MESSAGE = 1_000;

type Body = { json: true; value: unknown } | { json: false; excerpt: string };

function parseBody(text: string): Body {
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false, excerpt: excerptOf(text) };
  }
}

function serverMessage(value: unknown): string | undefined {
  const message = (value as { message?: unknown } | null)?.message;
  if (typeof message !== 'string' || message === '') return undefined;
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/** True for the service's own error answer: a JSON object whose `status` is `"error"`. */
function isErrorEnvelope(body: Body): boolean {
  const value = body.json ? (body.value as { status?: unknown } | null) : null;
  return typeof value === 'object' && value !== null && !Array.isArray(value) && value.status === 'error';
}

/**
 * A 404 that is not the service's envelope came from something else on the way (a gateway, a
 * proxy, a web server at the wrong base URL): the path does not exist there, whatever the reference.
 * Its own code, so it is never mistaken for an unknown reference and "dispatched again".
 */
function endpointNotFound(init: ApiErrorInit, received: string): NotFoundError {
  const message =
    `No Wallet endpoint at ${init.endpoint}: the 404 is not the service's error envelope (${received}), ` +
    'so something other than the Wallet service answered. Check baseUrl: it is the host plus any ' +
    'gateway prefix, without /v1 (the SDK adds it); behind a proxy or gateway, check that it forwards ' +
    'the path unchanged. This is not an unknown reference.';
  return new NotFoundError({ ...init, message }, 'endpoint_not_found');
}

/** Builds the error for a non-2xx response, choosing the class by status. */
export function apiErrorFor(raw: RawResponse, call: CallInfo, note?: string): ApiError {
  const body = parseBody(raw.text);
  const status = raw.status;
  const fallback = `HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}`;
  const said = body.json
    ? (serverMessage(body.value) ?? fallback)
    : body.excerpt
      ? `${fallback}: ${body.excerpt}`
      : fallback;
  const message = note === undefined ? said : `${said} (HTTP ${status}) ${note}`;
  const init: ApiErrorInit = {
    ...call,
    status,
    message,
    body: body.json ? body.value : body.excerpt,
    headers: raw.head.all(),
  };
  if (status === 404 && !isErrorEnvelope(body)) return endpointNotFound(init, message);
  if (status === 429) {
    const ms = parseRetryAfter(raw.head.get('retry-after'));
    return new RateLimitError(init, ms === undefined ? undefined : ms / 1000);
  }
  const Class = API_ERROR_BY_STATUS.get(status) ?? (status >= 500 ? InternalServerError : ApiError);
  return new Class(init);
}

/**
 * The error for a 3xx, never followed: code `see_other` for a 303 to a POST (the service acted),
 * else `redirect_refused`. The message is worded by the caller.
 */
export function redirectError(raw: RawResponse, call: CallInfo, message: string): ApiError {
  const body = parseBody(raw.text);
  const init: ApiErrorInit = {
    ...call,
    status: raw.status,
    message,
    body: body.json ? body.value : body.excerpt,
    headers: raw.head.all(),
  };
  const acted = raw.status === 303 && call.idempotencyKey !== undefined;
  return new ApiError(init, acted ? 'see_other' : 'redirect_refused');
}

/** The envelope of a 2xx response: its `data`, still unchecked, and `message`. */
export interface Envelope {
  /** The whole parsed body, for errors that carry it. */
  body: unknown;
  data: unknown;
  message: string | undefined;
}

/**
 * Opens the envelope of a 2xx response. An envelope whose `status` is `"error"` is an
 * {@link ApiError}; anything that is not the documented envelope is a `ResponseValidationError`,
 * whose outcome is unknown on a POST: the service answered 2xx, but what it did cannot be read.
 */
export function openEnvelope(raw: RawResponse, call: CallInfo): Envelope {
  const body = parseBody(raw.text);
  const invalid = (message: string): ResponseValidationError =>
    new ResponseValidationError(
      call.endpoint,
      raw.status,
      body.json ? body.value : raw.text.slice(0, 8_192),
      [{ path: '', message }],
      { ...call, outcomeUnknown: call.idempotencyKey !== undefined },
    );
  if (!body.json) throw invalid('expected a JSON body');
  const envelope = body.value as { status?: unknown; data?: unknown; message?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw invalid('expected a JSON object');
  }
  if (envelope.status === 'error') {
    throw new ApiError({
      ...call,
      status: raw.status,
      message: serverMessage(envelope) ?? 'The service answered with an error envelope',
      body: envelope,
      headers: raw.head.all(),
    });
  }
  if (envelope.status !== 'success') throw invalid('expected status "success" or "error"');
  return {
    body: envelope,
    data: envelope.data,
    message: typeof envelope.message === 'string' ? envelope.message : undefined,
  };
}

/**
 * Text of a non-JSON error body for messages, in time linear in a bounded prefix: a hostile
 * proxy page (megabytes of `<`) costs the same as a short one. A hand-written scan rather than
 * regular expressions, so no pattern can backtrack.
 */

/** How much of a body is looked at, in characters. */
const EXCERPT_SOURCE_CHARS = 8_192;
/** How long an excerpt may be, in characters. */
const EXCERPT_LENGTH = 300;

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
}

/** The visible text of (the start of) an HTML or plain-text body, whitespace collapsed. */
export function excerptOf(text: string): string {
  const source = text.length > EXCERPT_SOURCE_CHARS ? text.slice(0, EXCERPT_SOURCE_CHARS) : text;
  const lower = source.toLowerCase();
  let out = '';
  let pendingSpace = false;
  let i = 0;
  while (i < source.length && out.length <= EXCERPT_LENGTH) {
    const c = source.charCodeAt(i);
    if (c === 60 /* < */) {
      const close = source.indexOf('>', i + 1);
      if (close === -1) break; // an unclosed tag: the rest is markup
      // Skip script and style elements whole: their text is code, not a message.
      const skip = lower.startsWith('<script', i)
        ? '</script'
        : lower.startsWith('<style', i)
          ? '</style'
          : '';
      let end = close + 1;
      if (skip) {
        const at = lower.indexOf(skip, close);
        end = at === -1 ? source.length : source.indexOf('>', at) + 1 || source.length;
      }
      pendingSpace = true;
      i = end;
      continue;
    }
    if (isSpace(c)) pendingSpace = true;
    else {
      if (pendingSpace && out !== '') out += ' ';
      pendingSpace = false;
      out += source[i];
    }
    i++;
  }
  return out.length > EXCERPT_LENGTH ? `${out.slice(0, EXCERPT_LENGTH)}…` : out;
}
