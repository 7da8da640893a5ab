/**
 * The events of charges: the `charge.success` a paid charge sends, remembered in the state so that
 * a redelivery sends the very same event again.
 */
import { SandboxError } from '../state/errors.js';
import type { SandboxCharge } from '../state/records.js';
import type { SandboxState } from '../state/store.js';
import type { WebhookDelivery } from './delivery.js';
import type { WebhookSender } from './sender.js';

/** Remembers the `charge.success` of a charge just paid, and sends it. @internal */
export function sendPaid(
  state: SandboxState,
  sender: WebhookSender,
  charge: SandboxCharge,
): Promise<WebhookDelivery | null> {
  const { reference, amount } = charge;
  const sent = {
    event: 'charge.success',
    data: { reference, amount, customer: { handle: charge.customer.handle } },
  };
  state.sentEvents.set(reference, sent);
  return sender.send(reference, sent);
}

/** Sends a charge's remembered event again; a `SandboxError` says why there is nothing to send. @internal */
export async function resend(
  state: SandboxState,
  sender: WebhookSender,
  reference: string,
): Promise<WebhookDelivery> {
  if (!state.charges.has(reference)) throw new SandboxError(404, `No charge with reference '${reference}'.`);
  const sent = state.sentEvents.get(reference);
  if (sent === undefined) {
    throw new SandboxError(409, `No webhook was sent for '${reference}': only an authorized charge has one.`);
  }
  const delivery = await sender.send(reference, sent);
  if (delivery === null) {
    throw new SandboxError(409, 'This sandbox has no webhookUrl, so there is nothing to redeliver.');
  }
  return delivery;
}

/**
 * Sends a past delivery again, byte for byte (its body and signature), to the current target: a
 * new delivery with its own id and retries. A `SandboxError` says why it cannot.
 * @internal
 */
export async function replay(
  state: SandboxState,
  sender: WebhookSender,
  id: string,
): Promise<WebhookDelivery> {
  const past = state.deliveries.toArray().find((attempt) => attempt.id === id);
  if (past === undefined) {
    throw new SandboxError(404, `No delivery '${id}' (the sandbox keeps the newest historyLimit attempts).`);
  }
  const { event, reference, body, signature } = past;
  const delivery = await sender.send(reference, { event, data: null }, { body, signature });
  if (delivery === null) {
    throw new SandboxError(409, 'This sandbox has no webhookUrl, so there is nowhere to replay to.');
  }
  return delivery;
}
