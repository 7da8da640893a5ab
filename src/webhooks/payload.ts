/**
 * Parsing a body whose signature already matched, and checking the documented fields. Hand-written
 * checks rather than zod: this entry must not load zod.
 */
import { WebhookVerificationError } from '../errors/validation.js';
import { decodeUtf8 } from './signature.js';
import type { WebhookEvent } from './types.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_payload',
    `The webhook signature matched, but ${detail}. The event was not accepted.`,
  );
}

/** The problem with a `charge.success` data object, or undefined when it has the documented shape. */
function chargeSuccessProblem(data: Record<string, unknown>): string | undefined {
  if (typeof data['reference'] !== 'string') return 'data.reference is not a string';
  if (!Number.isSafeInteger(data['amount'])) return 'data.amount is not a safe integer of Kobo';
  const customer = data['customer'];
  if (!isObject(customer)) return 'data.customer is not an object';
  if (typeof customer['handle'] !== 'string') return 'data.customer.handle is not a string';
  return undefined;
}

/** Parses and checks a body whose signature matched. Unknown fields and event kinds are kept. */
export function parseEvent(body: Uint8Array): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(body));
  } catch {
    throw invalid('the body is not UTF-8 JSON');
  }
  if (!isObject(parsed)) throw invalid('the body is not a JSON object');
  if (typeof parsed['event'] !== 'string') throw invalid('its "event" is not a string');
  const data = parsed['data'];
  if (!isObject(data)) throw invalid('its "data" is not an object');
  if (parsed['event'] === 'charge.success') {
    const problem = chargeSuccessProblem(data);
    if (problem !== undefined) throw invalid(`in this charge.success event ${problem}`);
  }
  return parsed as unknown as WebhookEvent;
}
