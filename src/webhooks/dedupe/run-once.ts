// Runs `onEvent` once per event across a fleet: claim, run (the claim a renewed lease), then done or
// release. A step that fails makes the service deliver again, except recording a success: then 200.
import { WalletError } from '../../errors/base.js';
import type { WebhookEvent } from '../types.js';
import type { WebhookDedupeStore } from './store.js';

/** Reports a delivery not acknowledged, with the status it got (the handlers' `onError`). */
type Report = (error: unknown, context: { status: number }) => void;

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** The event's id (the service sends none): `charge.success:<reference>`, else the body's SHA-256. */
async function eventIdentity(event: WebhookEvent, body: Uint8Array): Promise<string> {
  const reference = event.event === 'charge.success' ? event.data.reference : undefined;
  // A lone surrogate would become U+FFFD on its way to a store, so two references would share a key.
  if (reference !== undefined && !/\p{Surrogate}/u.test(reference)) return `charge.success:${reference}`;
  return `sha256:${hex(await globalThis.crypto.subtle.digest('SHA-256', body))}`;
}

function leaseLost(id: string, detail: string, cause?: unknown): WalletError {
  return new WalletError(
    `The dedupe claim on webhook event ${id} could not be renewed while onEvent ran (${detail}), so ` +
      'another delivery may run it too; answered 503 so the service delivers it again.',
    'webhook_dedupe_lease_lost',
    cause === undefined ? undefined : { cause },
  );
}

/** Renews the claim every third of `claimTtl` if the store can; `stop()` returns why the lease was lost. */
function keepLease(
  store: WebhookDedupeStore,
  id: string,
  token: string,
  claimedAt: number,
): () => WalletError | undefined {
  const { claimTtl } = store;
  if (typeof store.renew !== 'function' || typeof claimTtl !== 'number' || !(claimTtl > 0)) {
    return () => undefined;
  }
  let stopped = false;
  let lost: WalletError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // When the claim was last known held: a store extends it from when it was asked, no earlier.
  let heldSince = claimedAt;
  const schedule = (): void => {
    timer = setTimeout(renew, Math.max(1, Math.floor(claimTtl / 3)));
    // A pending renewal must not keep a process alive that has nothing else to do.
    (timer as { unref?: () => void }).unref?.();
  };
  const renew = (): void => {
    const asked = Date.now();
    // Called through the store, so a store's own `this` works.
    Promise.resolve()
      .then(() => store.renew!(id, token))
      .then(
        (held) => {
          if (stopped) return;
          if (held === true) {
            heldSince = asked;
            schedule();
          } else lost = leaseLost(id, 'the claim expired and was taken');
        },
        (error: unknown) => {
          if (!stopped) lost = leaseLost(id, 'the store did not answer', error);
        },
      );
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    // A renewal that never answered (a store without a timeout, a blocked event loop) let it lapse.
    if (lost === undefined && Date.now() - heldSince >= claimTtl) {
      lost = leaseLost(id, `no renewal was confirmed for ${claimTtl} ms`);
    }
    return lost;
  };
}

const storeError = (step: string, id: string, cause: unknown): WalletError =>
  new WalletError(`The webhook dedupe store failed to ${step} event ${id}.`, 'webhook_dedupe_unavailable', {
    cause,
  });

/** Runs `onEvent` unless the event is done or held elsewhere: the status to answer. Never rejects. */
export async function runOnce(
  store: WebhookDedupeStore,
  event: WebhookEvent,
  body: Uint8Array,
  onEvent: (event: WebhookEvent) => unknown,
  onError: Report,
): Promise<200 | 500 | 503> {
  let id = '(unidentified)';
  let token: string;
  let claimedAt = 0;
  try {
    id = await eventIdentity(event, body);
    claimedAt = Date.now();
    const claim: unknown = await store.claim(id);
    const { status, token: given } = (claim ?? {}) as { status?: unknown; token?: unknown };
    if (status === 'done') return 200;
    if (status === 'busy') {
      const message = `Webhook event ${id} is being handled by another delivery; answered 503 so the service delivers it again later.`;
      onError(new WalletError(message, 'webhook_event_in_progress'), { status: 503 });
      return 503;
    }
    if (status !== 'claimed' || typeof given !== 'string') {
      throw new TypeError(`claim() resolved to ${JSON.stringify(claim)}, not a claim.`);
    }
    token = given;
  } catch (error) {
    // Unguarded, onEvent might run on two machines at once: better a redelivery later.
    onError(storeError('claim', id, error), { status: 503 });
    return 503;
  }
  const stopLease = keepLease(store, id, token, claimedAt);
  try {
    await onEvent(event);
  } catch (error) {
    stopLease();
    onError(error, { status: 500 });
    try {
      await store.release(id, token);
    } catch (cause) {
      // The claim then blocks redeliveries until it expires; after that they run onEvent.
      onError(storeError('release', id, cause), { status: 500 });
    }
    return 500;
  }
  const lost = stopLease();
  if (lost !== undefined) {
    // Another delivery may have run it meanwhile: have the service deliver again. Marking it done
    // still spares that redelivery another run.
    onError(lost, { status: 503 });
    try {
      await store.done(id, token);
    } catch {
      // The 503 stands: the redelivery may run it again, which the lease error just said.
    }
    return 503;
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
  return 200;
}
