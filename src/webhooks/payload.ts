/**
 * Parsing a body whose signature already matched, and checking the documented fields. Hand-written
 * checks rather than zod: this entry must not load zod. A body that fails here is genuine (the
 * service signed it), so its problem is told apart from a forgery's by the caller, never answered
 * like one.
 */
import { WebhookVerificationError } from '../errors/validation.js';
import { decodeUtf8 } from './signature.js';
import type { WebhookEvent } from './types.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type of a value, for messages: never the value itself, which may carry personal data. */
function jsonType(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function invalid(detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_payload',
    `The webhook signature matched, but ${detail}. The delivery is genuine; its payload is not the documented shape.`,
  );
}

/** The problem with a `charge.success` data object, or undefined when it has the documented shape. */
function chargeSuccessProblem(data: Record<string, unknown>): string | undefined {
  const { reference, amount, customer } = data;
  if (typeof reference !== 'string') return `data.reference is ${jsonType(reference)}, not a string`;
  if (!Number.isSafeInteger(amount)) {
    const what = typeof amount === 'number' ? 'a number that is not a safe integer' : jsonType(amount);
    return `data.amount is ${what}, not a safe integer of Kobo`;
  }
  // As in the API's answers (schemas/responses.ts): money paid is never negative.
  if ((amount as number) < 0) return 'data.amount is negative, not an amount paid in Kobo';
  if (!isObject(customer)) return `data.customer is ${jsonType(customer)}, not an object`;
  const handle = customer['handle'];
  if (typeof handle !== 'string') return `data.customer.handle is ${jsonType(handle)}, not a string`;
  return undefined;
}

/** A signed body read: the event, or the body as far as it could be read and what did not fit. */
export type ReadEvent =
  { ok: true; event: WebhookEvent } | { ok: false; payload: unknown; error: WebhookVerificationError };

/**
 * Reads a body whose signature matched. `payload` is the parsed JSON when the body is JSON, else its
 * text when it is UTF-8, else its bytes, so a merchant's `onInvalidEvent` gets all there is.
 * Unknown fields and event kinds are kept.
 */
export function readEvent(body: Uint8Array): ReadEvent {
  let text: string;
  try {
    text = decodeUtf8(body);
  } catch {
    return { ok: false, payload: body, error: invalid('the body is not UTF-8') };
  }
  if (text.charCodeAt(0) === 0xfeff) {
    const error = invalid('the body starts with a byte order mark (U+FEFF), which JSON does not allow');
    return { ok: false, payload: text, error };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, payload: text, error: invalid('the body is not JSON') };
  }
  const fail = (detail: string): ReadEvent => ({ ok: false, payload: parsed, error: invalid(detail) });
  if (!isObject(parsed)) return fail(`the body is ${jsonType(parsed)}, not a JSON object`);
  if (typeof parsed['event'] !== 'string')
    return fail(`"event" is ${jsonType(parsed['event'])}, not a string`);
  const data = parsed['data'];
  if (!isObject(data)) return fail(`"data" is ${jsonType(data)}, not an object`);
  if (parsed['event'] === 'charge.success') {
    const problem = chargeSuccessProblem(data);
    if (problem !== undefined) return fail(`in this charge.success event ${problem}`);
  }
  return { ok: true, event: parsed as unknown as WebhookEvent };
}

/** Parses and checks a body whose signature matched, throwing `invalid_payload` when it does not fit. */
export function parseEvent(body: Uint8Array): WebhookEvent {
  const read = readEvent(body);
  if (!read.ok) throw read.error;
  return read.event;
}
