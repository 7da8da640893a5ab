/**
 * Hand-written checks of request bodies, answering 400 the way a strict service would. The sandbox
 * avoids zod so that `@wallet/node/testing` stays cheap to load in a merchant's test run.
 */
import { SandboxError } from '../state/errors.js';

/** A parsed JSON request body that is an object. @internal */
export type JsonObject = Record<string, unknown>;

function bad(message: string): SandboxError {
  return new SandboxError(400, message);
}

/**
 * Parses a POST body: JSON, and an object at the top. The content type must say JSON, as the spec
 * requires of every POST, so a merchant who forgets the header finds out here and not in production.
 * @internal
 */
export function parseJsonObject(text: string, contentType: string | null): JsonObject {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw bad(`Content-Type must be application/json (got ${contentType === null ? 'none' : `'${type}'`}).`);
  }
  if (text.trim() === '') throw bad('The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('The request body must be a JSON object.');
  }
  return value as JsonObject;
}

/** A required, non-empty string field. @internal */
export function requireString(body: JsonObject, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw bad(`${field} is required.`);
  if (typeof value !== 'string') throw bad(`${field} must be a string.`);
  if (value.trim() === '') throw bad(`${field} must not be empty.`);
  return value;
}

/** An optional string field: absent gives `undefined`, anything but a string is refused. @internal */
export function optionalString(body: JsonObject, field: string): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw bad(`${field} must be a string when given.`);
  return value;
}

function checkAmount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw bad(`${field} must be a positive whole number of Kobo.`);
  }
  return value;
}

/** A required amount: a positive safe integer of Kobo. @internal */
export function requireAmount(body: JsonObject, field: string): number {
  if (body[field] === undefined || body[field] === null) throw bad(`${field} is required.`);
  return checkAmount(body[field], field);
}

/**
 * An optional amount: absent gives `undefined`. `null` is refused rather than read as "absent",
 * because a refund's missing amount means "refund everything" and that must never be an accident.
 * @internal
 */
export function optionalAmount(body: JsonObject, field: string): number | undefined {
  if (body[field] === undefined) return undefined;
  return checkAmount(body[field], field);
}

/** How deep a stored object may nest: the sandbox copies and freezes what it keeps, recursively. */
const MAX_DEPTH = 32;

function depth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, level] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, level);
    if (deepest > MAX_DEPTH) return deepest;
    for (const inner of Object.values(item)) stack.push([inner, level + 1]);
  }
  return deepest;
}

/** An optional plain object of custom pairs (JSON can hold nothing else), nested at most 32 deep. @internal */
export function optionalObject(body: JsonObject, field: string): JsonObject | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad(`${field} must be an object of key-value pairs when given.`);
  }
  if (depth(value) > MAX_DEPTH) throw bad(`${field} nests more than ${MAX_DEPTH} levels deep.`);
  return value as JsonObject;
}

/** A required field limited to a list of values. @internal */
export function requireOneOf<T extends string>(body: JsonObject, field: string, allowed: readonly T[]): T {
  const value = requireString(body, field);
  if (!(allowed as readonly string[]).includes(value)) {
    throw bad(`${field} must be one of ${allowed.join(', ')}.`);
  }
  return value as T;
}
