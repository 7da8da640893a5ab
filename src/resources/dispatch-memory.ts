/**
 * When the prompts this client dispatched expire, by reference: what lets `waitForOutcome` wait
 * exactly as long as the customer can still answer. Only successful dispatches are remembered,
 * and only the most recent few thousand references (in the one bounded key memory), so a
 * long-running server's memory stays flat.
 */
import { Recent } from '../core/idempotency.js';

/** How many references are remembered before the reference dispatched longest ago is forgotten. */
export const DISPATCH_MEMORY_SIZE = 5_000;

/** A bounded map from reference to the expiry (epoch ms) of this client's last prompt for it. */
export class DispatchMemory {
  readonly #expiries: Recent<number>;

  /** @param size - how many references to keep. */
  constructor(size: number = DISPATCH_MEMORY_SIZE) {
    this.#expiries = new Recent(size);
  }

  /**
   * Records a successful dispatch; an `expiresAt` that is not a date is ignored. With the
   * response's `Date` header, the expiry is moved onto this machine's clock, so a server clock
   * that runs ahead or behind does not end the wait early or late.
   */
  remember(reference: string, expiresAt: string, serverDate?: string): void {
    const expires = Date.parse(expiresAt);
    if (Number.isNaN(expires)) return;
    const served = serverDate === undefined ? Number.NaN : this.#dateOf(serverDate);
    const at = Number.isNaN(served) ? expires : Date.now() + (expires - served);
    this.#expiries.set(reference, at);
  }

  // The service's Date header changes once a second, so its last reading is kept.
  #lastDate: string | undefined;
  #lastDateMs = Number.NaN;
  #dateOf(header: string): number {
    if (header !== this.#lastDate) {
      this.#lastDateMs = Date.parse(header);
      this.#lastDate = header;
    }
    return this.#lastDateMs;
  }

  /** The expiry (epoch ms) of the last prompt this client dispatched for `reference`. */
  expiryOf(reference: string): number | undefined {
    return this.#expiries.get(reference);
  }

  /** How many references are remembered (see `Recent.size`). */
  get size(): number {
    return this.#expiries.size;
  }
}
