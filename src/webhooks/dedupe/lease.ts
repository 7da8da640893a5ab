/**
 * Keeps a dedupe claim alive while `onEvent` runs: renewed every third of the store's `claimTtl`,
 * so a handler slower than the lease is never run by a second delivery, and two renewals may fail
 * before it could lapse. Once a renewal fails or finds the claim taken, renewing stops and the
 * loss is kept for the answer.
 */
import { WalletError } from '../../errors/base.js';
import type { WebhookDedupeStore } from './types.js';

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
