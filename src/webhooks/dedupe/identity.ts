/**
 * Which deliveries are "the same event": the service sends no event id, so the identity is built
 * from what it does send.
 */
import type { WebhookEvent } from '../types.js';

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The event's identity: its kind and `data.reference` for kinds the SDK knows (a redelivery of one
 * charge's success is the same event whatever its bytes), else the SHA-256 of the raw body, since
 * nothing else is known to identify an unknown kind. Web Crypto, so it runs on edge runtimes too.
 */
export async function eventIdentity(event: WebhookEvent, body: Uint8Array): Promise<string> {
  if (event.event === 'charge.success') return `${event.event}:${event.data.reference}`;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', body);
  return `sha256:${hex(digest)}`;
}
