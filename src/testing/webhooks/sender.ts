/**
 * The sandbox's webhook sender: where events go (set at creation, or changed while the sandbox
 * runs without losing its state), the deliveries under way, and stopping them on `close()`.
 */
import type { SandboxDeliveryAttempt } from '../state/records.js';
import type { SentEvent } from '../state/store.js';
import { startDelivery } from './delivery.js';
import type { WebhookDelivery, WebhookOutcome, WebhookRetryOptions } from './delivery.js';

/** Where webhooks go: an endpoint and the secret it verifies with. */
export interface WebhookTarget {
  /** The merchant's endpoint. */
  readonly url: string;
  /** The secret deliveries are signed with. */
  readonly secret: string;
}

/** Sends each event to the current target and keeps track of the retries under way. @internal */
export class WebhookSender {
  target: WebhookTarget | undefined;
  readonly #retry: Required<WebhookRetryOptions>;
  readonly #now: () => Date;
  readonly #record: (attempt: SandboxDeliveryAttempt) => void;
  // Background retries: close() stops them and waits for them to end.
  #stop = new AbortController();
  readonly #pending = new Set<Promise<WebhookOutcome>>();
  // Never reset, so an id names one delivery for the sandbox's whole life.
  #deliveries = 0;

  constructor(
    target: WebhookTarget | undefined,
    retry: Required<WebhookRetryOptions>,
    now: () => Date,
    record: (attempt: SandboxDeliveryAttempt) => void,
  ) {
    this.target = target;
    this.#retry = retry;
    this.#now = now;
    this.#record = record;
  }

  /**
   * Delivers one event of a charge, or the very bytes of a past delivery (`signed`); `null` when
   * there is no target.
   */
  async send(
    reference: string,
    sent: SentEvent,
    signed?: { body: string; signature: string },
  ): Promise<WebhookDelivery | null> {
    const target = this.target;
    if (target === undefined) return null;
    this.#deliveries += 1;
    const delivery = await startDelivery({
      id: `dlv_${this.#deliveries}`,
      signed,
      url: target.url,
      secret: target.secret,
      event: sent.event,
      reference,
      data: sent.data,
      retry: this.#retry,
      now: this.#now,
      signal: this.#stop.signal,
      record: this.#record,
    });
    const settled = delivery.settled;
    this.#pending.add(settled);
    void settled.then(() => this.#pending.delete(settled));
    return delivery;
  }

  /** Stops the retries under way and waits for them; ready to send again afterwards. */
  async close(): Promise<void> {
    this.#stop.abort();
    await Promise.all(this.#pending);
    this.#stop = new AbortController();
  }
}
