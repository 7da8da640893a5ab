/**
 * Claim, run, then mark done or release: how a handler with a dedupe store runs `onEvent` once per
 * event across a fleet. The claim is a lease, renewed while `onEvent` runs. Every step that cannot
 * be completed ends in an answer that makes the service deliver again, except a failure to record
 * a success while the lease held: then 200, so it is not run twice. The lease is renewed every
 * third of the store's `claimTtl`, so a handler slower than the lease is never run by a second
 * delivery, and two renewals may fail before it could lapse. Once a renewal fails or finds the
 * claim taken, renewing stops and the loss is kept for the answer. Which deliveries are "the same
 * event": the service sends no event id, so the identity is built from what it does send.
 */
import { WalletError } from '../../errors/base.js';
import type { WebhookErrorContext } from '../handler-options.js';
import type { WebhookEvent } from '../types.js';
import type { DedupeClaim, WebhookDedupeStore } from './types.js';

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

/** A lease being renewed; `stop()` ends the renewals and returns why the lease was lost, if it was. */
export interface Lease {
  stop(): WalletError | undefined;
}

const NOT_RENEWED: Lease = { stop: () => undefined };

function leaseLost(id: string, detail: string, cause?: unknown): WalletError {
  return new WalletError(
    `The dedupe claim on webhook event ${id} could not be renewed while onEvent ran (${detail}), so ` +
      'another delivery may run it too; answered 503 so the service delivers it again.',
    'webhook_dedupe_lease_lost',
    cause === undefined ? undefined : { cause },
  );
}

/** Starts renewing the claim `token` holds on `id`, when the store can renew. */
export function keepLease(store: WebhookDedupeStore, id: string, token: string): Lease {
  const { claimTtl } = store;
  if (typeof store.renew !== 'function' || typeof claimTtl !== 'number' || !(claimTtl > 0)) {
    return NOT_RENEWED;
  }
  const every = Math.max(1, Math.floor(claimTtl / 3));
  let stopped = false;
  let lost: WalletError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    timer = setTimeout(renew, every);
    // A pending renewal must not keep a process alive that has nothing else to do.
    (timer as { unref?: () => void }).unref?.();
  };
  const renew = (): void => {
    // Called through the store, so a store's own `this` works.
    Promise.resolve()
      .then(() => store.renew!(id, token))
      .then(
        (held) => {
          if (stopped) return;
          if (held === true) schedule();
          else lost = leaseLost(id, 'the claim expired and was taken');
        },
        (error: unknown) => {
          if (!stopped) lost = leaseLost(id, 'the store did not answer', error);
        },
      );
  };
  schedule();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      return lost;
    },
  };
}

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
