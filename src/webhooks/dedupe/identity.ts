/**
 * Which deliveries are "the same event": the service sends no event id, so the identity is built
 * from what it does send.
 */
import type { WebhookEvent } from '../types.js';

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The event's identity: its kind and `data.reference` for kinds the SDK knows (a redelivery of one
 * charge's success is the same event whatever its bytes), else the SHA-256 of the raw body, since
 * nothing else is known to identify an unknown kind (or a reference that is not well-formed text).
 * Web Crypto, so it runs on edge runtimes too.
 */
export async function eventIdentity(event: WebhookEvent, body: Uint8Array): Promise<string> {
  // A lone surrogate would become U+FFFD on its way to a store, so two references would share a key.
  const { reference } = event.event === 'charge.success' ? event.data : { reference: undefined };
  if (reference !== undefined && !LONE_SURROGATE.test(reference)) return `charge.success:${reference}`;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', body);
  return `sha256:${hex(digest)}`;
}
