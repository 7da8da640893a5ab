/** The service's wire: request bodies checked by hand (no zod, so the sandbox loads cheaply), and the envelopes. */
import { MAX_BODY_BYTES, readBounded } from '../../core/body.js';
import { isPlainObject } from '../../internal/values.js';
import { SandboxError } from '../state/records.js';

/** A saved answer (the body's exact text): what the idempotency store keeps and replays. @internal */
export type SavedResponse = { status: number; body: string };

/** `{ status: 'success', message?, data }` with HTTP 200; verify's has no `message`. @internal */
export function success(data: unknown, message?: string): SavedResponse {
  return { status: 200, body: JSON.stringify({ status: 'success', message, data }) };
}

/** `{ status: 'error', message }` with the given HTTP status. @internal */
export function failure(status: number, message: string): SavedResponse {
  return { status, body: JSON.stringify({ status: 'error', message }) };
}

/** The error envelope of a refusal; anything but a {@link SandboxError} is the sandbox's own 500. @internal */
export function refusal(error: unknown): SavedResponse {
  if (error instanceof SandboxError) return failure(error.status, error.message);
  return failure(500, `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** The Fetch `Response` of a saved answer; `extra` adds headers such as `Idempotent-Replayed`. @internal */
export function toResponse(saved: SavedResponse, extra: Record<string, string> = {}): Response {
  const headers = { 'content-type': 'application/json; charset=utf-8', ...extra };
  return new Response(saved.body, { status: saved.status, headers });
}

/** A request's body as text; 413 past `limit`, and the bytes beyond are never kept. @internal */
export async function readBody(request: Request, limit: number = MAX_BODY_BYTES): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const declared = request.headers.get('content-length') ?? undefined;
  const cancel = (): void => void reader.cancel().catch(() => {});
  const body = await readBounded(() => reader.read(), cancel, declared, limit);
  if (body === undefined) {
    const size = limit === MAX_BODY_BYTES ? `${limit} bytes (1 MiB)` : `${limit} bytes`;
    throw new SandboxError(413, `The request body is larger than ${size}.`);
  }
  return body.text();
}

/** The largest seed body, bytes (64 MiB: about 400,000 charges as JSON lines). */
const MAX_SEED_BYTES = 64 * 1024 * 1024;

/** The rows of a seed body: a JSON array, or JSON lines; a bad line is a 400 naming it. @internal */
export async function readSeed(request: Request): Promise<unknown[]> {
  const text = await readBody(request, MAX_SEED_BYTES);
  const start = /\S/.exec(text)?.index;
  if (start === undefined)
    throw new SandboxError(400, 'The seed is empty: send a JSON array of charges, or JSON lines.');
  if (text[start] === '[') {
    try {
      return JSON.parse(text) as unknown[]; // JSON that starts with '[' is an array
    } catch {
      throw new SandboxError(400, 'The seed is not valid JSON.');
    }
  }
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      throw new SandboxError(400, `Line ${index + 1} of the seed is not valid JSON.`);
    }
  });
}

/** A parsed JSON request body that is an object. @internal */
export type JsonObject = Record<string, unknown>;

const bad = (message: string): SandboxError => new SandboxError(400, message);

/** A POST body: JSON with an object at the top, sent as JSON (the spec requires the header). @internal */
export function parseJsonObject(text: string, contentType: string | null): JsonObject {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    throw bad(`Content-Type must be application/json (got ${contentType === null ? 'none' : `'${type}'`}).`);
  if (text.trim() === '') throw bad('The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('The request body is not valid JSON.');
  }
  if (!isPlainObject(value)) throw bad('The request body must be a JSON object.');
  return value;
}

/** A required, non-empty string field; one of `allowed`, if given. @internal */
export function requireString(body: JsonObject, field: string, allowed?: readonly string[]): string {
  const value = body[field];
  if (value === undefined || value === null) throw bad(`${field} is required.`);
  if (typeof value !== 'string') throw bad(`${field} must be a string.`);
  if (value.trim() === '') throw bad(`${field} must not be empty.`);
  if (allowed && !allowed.includes(value)) throw bad(`${field} must be one of ${allowed.join(', ')}.`);
  return value;
}

/** An optional string field. @internal */
export function optionalString(body: JsonObject, field: string): string | undefined {
  const value = body[field];
  if (value !== undefined && typeof value !== 'string') throw bad(`${field} must be a string when given.`);
  return value;
}

/** A positive safe integer of Kobo; an optional one refuses `null` (a refund of everything by accident). @internal */
export function amount(body: JsonObject, field: string, required: boolean): number | undefined {
  const value = body[field];
  if (value === undefined && !required) return undefined;
  if (required && (value === undefined || value === null)) throw bad(`${field} is required.`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw bad(`${field} must be a positive whole number of Kobo.`);
  return value;
}

// Metadata is copied and frozen recursively, so it nests at most 32 deep; the check stops there too.
const MAX_DEPTH = 32;
const tooDeep = (value: unknown, level = 1): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (level > MAX_DEPTH || Object.values(value).some((inner) => tooDeep(inner, level + 1)));

/** An optional plain object of custom pairs, nested at most 32 deep. @internal */
export function optionalObject(body: JsonObject, field: string): JsonObject | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw bad(`${field} must be an object of key-value pairs when given.`);
  if (tooDeep(value)) throw bad(`${field} nests more than ${MAX_DEPTH} levels deep.`);
  return value;
}
