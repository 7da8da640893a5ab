import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ApiErrorInit,
} from '../errors.js';
import type { RawResponse } from './attempt.js';
import { parseRetryAfter } from './retry.js';

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
const EXCERPT_LENGTH = 300;

/** Where a response came from, for errors. */
export interface ResponseContext {
  endpoint: string;
  idempotencyKey: string | undefined;
}

type Body = { json: true; value: unknown } | { json: false; excerpt: string };

function parseBody(text: string): Body {
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    // An HTML error page from a proxy says more in its text than in its markup.
    const plain = text
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return {
      json: false,
      excerpt: plain.length > EXCERPT_LENGTH ? `${plain.slice(0, EXCERPT_LENGTH)}…` : plain,
    };
  }
}

function serverMessage(value: unknown): string | undefined {
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

/** Builds the error for a non-2xx response, choosing the class by status. */
export function apiErrorFor(raw: RawResponse, context: ResponseContext): ApiError {
  const body = parseBody(raw.text);
  const status = raw.status;
  const fallback = `HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}`;
  const message = body.json
    ? (serverMessage(body.value) ?? fallback)
    : body.excerpt
      ? `${fallback}: ${body.excerpt}`
      : fallback;
  const init: ApiErrorInit = {
    status,
    message,
    body: body.json ? body.value : body.excerpt,
    headers: raw.headers,
    idempotencyKey: context.idempotencyKey,
    endpoint: context.endpoint,
  };
  switch (status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new UnprocessableEntityError(init);
    case 429: {
      const ms = parseRetryAfter(raw.headers['retry-after']);
      return new RateLimitError(init, ms === undefined ? undefined : ms / 1000);
    }
    default:
      return status >= 500 ? new InternalServerError(init) : new ApiError(init);
  }
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
 * {@link ApiError}; anything that is not the documented envelope is a `ResponseValidationError`.
 */
export function openEnvelope(raw: RawResponse, context: ResponseContext): Envelope {
  const body = parseBody(raw.text);
  const invalid = (message: string): ResponseValidationError =>
    new ResponseValidationError(context.endpoint, raw.status, body.json ? body.value : raw.text, [
      { path: '', message },
    ]);
  if (!body.json) throw invalid('expected a JSON body');
  const envelope = body.value as { status?: unknown; data?: unknown; message?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw invalid('expected a JSON object');
  }
  if (envelope.status === 'error') {
    throw new ApiError({
      status: raw.status,
      message: serverMessage(envelope) ?? 'The service answered with an error envelope',
      body: envelope,
      headers: raw.headers,
      idempotencyKey: context.idempotencyKey,
      endpoint: context.endpoint,
    });
  }
  if (envelope.status !== 'success') throw invalid('expected status "success" or "error"');
  return {
    body: envelope,
    data: envelope.data,
    message: typeof envelope.message === 'string' ? envelope.message : undefined,
  };
}
