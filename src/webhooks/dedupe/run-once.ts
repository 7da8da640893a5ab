/**
 * Claim, run, then mark done or release: how a handler with a dedupe store runs `onEvent` once per
 * event across a fleet. The claim is a lease, renewed while `onEvent` runs. Every step that cannot
 * be completed ends in an answer that makes the service deliver again, except a failure to record
 * a success while the lease held: then 200, so it is not run twice.
 */
import { WalletError } from '../../errors/base.js';
import type { WebhookErrorContext } from '../handler-options.js';
import type { WebhookEvent } from '../types.js';
import { eventIdentity } from './identity.js';
import { keepLease } from './lease.js';
import type { DedupeClaim, WebhookDedupeStore } from './types.js';

/** What {@link runOnce} ended with; the handler turns it into an HTTP answer. */
export type RunOutcome = 'handled' | 'already_done' | 'failed' | 'busy' | 'store_failed' | 'lease_lost';

function storeError(step: string, id: string, cause: unknown): WalletError {
  return new WalletError(
    `The webhook dedupe store failed to ${step} event ${id}.`,
    'webhook_dedupe_unavailable',
    {
      cause,
    },
  );
}

function isClaim(value: unknown): value is DedupeClaim {
  const claim = value as { status?: unknown; token?: unknown } | null;
  if (typeof claim !== 'object' || claim === null) return false;
  if (claim.status === 'claimed') return typeof claim.token === 'string';
  return claim.status === 'done' || claim.status === 'busy';
}

/** Runs `onEvent` for `event` unless the store says it is done or held elsewhere. Never rejects. */
export async function runOnce(
  store: WebhookDedupeStore,
  event: WebhookEvent,
  body: Uint8Array,
  onEvent: (event: WebhookEvent) => unknown,
  onError: (error: unknown, context: WebhookErrorContext) => void,
): Promise<RunOutcome> {
  let id = '(unidentified)';
  let claim: unknown;
  try {
    id = await eventIdentity(event, body);
    claim = await store.claim(id);
    if (!isClaim(claim)) throw new TypeError(`claim() resolved to ${JSON.stringify(claim)}, not a claim.`);
  } catch (error) {
    // Unguarded, onEvent might run on two machines at once: better a redelivery later.
    onError(storeError('claim', id, error), { status: 503 });
    return 'store_failed';
  }
  if (claim.status === 'done') return 'already_done';
  if (claim.status === 'busy') {
    const error = new WalletError(
      `Webhook event ${id} is being handled by another delivery; answered 503 so the service delivers it again later.`,
      'webhook_event_in_progress',
    );
    onError(error, { status: 503 });
    return 'busy';
  }
  const { token } = claim;
  const lease = keepLease(store, id, token);
  try {
    await onEvent(event);
  } catch (error) {
    lease.stop();
    onError(error, { status: 500 });
    try {
      await store.release(id, token);
    } catch (releaseError) {
      // The claim then blocks redeliveries until it expires; after that they run onEvent.
      onError(storeError('release', id, releaseError), { status: 500 });
    }
    return 'failed';
  }
  const lost = lease.stop();
  if (lost !== undefined) {
    // Another delivery may have run it meanwhile, or will once the store is back: say so, and have
    // the service deliver again. Marking it done still spares that redelivery another run.
    onError(lost, { status: 503 });
    await store.done(id, token).catch(() => undefined);
    return 'lease_lost';
  }
  try {
    await store.done(id, token);
  } catch (error) {
    // onEvent succeeded: a 500 now would have it run again. Answer 200 and say so.
    const note = new WalletError(
      `Webhook event ${id} was handled, but the dedupe store could not record it; a redelivery after its claim expires would run onEvent again.`,
      'webhook_dedupe_not_recorded',
      { cause: error },
    );
    onError(note, { status: 200 });
  }
  return 'handled';
}
