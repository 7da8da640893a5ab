/** Webhooks as the service sends them: signed, retried with capped doubling delays, each attempt recorded. */
import { setTimeout as sleep } from 'node:timers/promises';

import { signWebhook, type SignedWebhook } from '../../webhooks/verify.js';
import { SandboxError, type SandboxCharge, type SandboxDeliveryAttempt } from '../state/records.js';
import type { SandboxState, SentEvent } from '../state/store.js';

/** A delivery's body: indented JSON and a newline, so a handler verifying a re-serialized body fails here too. @internal */
export function webhookBody(event: string, data: unknown): string {
  return `${JSON.stringify({ event, data }, null, 2)}\n`;
}

/** Where webhooks go: an endpoint and the secret it verifies with. */
export interface WebhookTarget {
  /** The merchant's endpoint. */
  readonly url: string;
  /** The secret deliveries are signed with. */
  readonly secret: string;
}

/** How the sandbox retries a webhook delivery. */
export interface WebhookRetryOptions {
  /** Attempts in all, the first included; from 1 to 20. @default 5 */
  attempts?: number;
  /** Delay before the second attempt, ms; doubling before each later one, up to `maxDelayMs`. @default 50 */
  delayMs?: number;
  /** The longest delay between two attempts, ms. @default 10000 */
  maxDelayMs?: number;
  /** How long one attempt may take, from sending to the end of the endpoint's answer, ms. @default 2000 */
  timeoutMs?: number;
}

/** How a delivery went, once its last attempt is over. */
export interface WebhookOutcome {
  /** True when an attempt got a 2xx answer. */
  readonly delivered: boolean;
  /** Every attempt, in order. */
  readonly attempts: readonly SandboxDeliveryAttempt[];
}

/** A delivery as its first attempt left it; retries may go on in the background. */
export interface WebhookDelivery {
  /** True when the first attempt got a 2xx answer. */
  readonly delivered: boolean;
  /** The first attempt. */
  readonly attempts: readonly SandboxDeliveryAttempt[];
  /** True when the first attempt failed and more are scheduled. */
  readonly retrying: boolean;
  /** Resolves when the last attempt is over (never rejects); `sandbox.close()` ends it early. */
  readonly settled: Promise<WebhookOutcome>;
}

type Delivery = Pick<SandboxDeliveryAttempt, 'id' | 'event' | 'reference' | 'url' | 'body' | 'signature'>;
type Posted = { status: number | null; error: string | null };

/** What went wrong with an attempt, in a few words. */
function why(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (error.name === 'AbortError') return 'stopped: the sandbox closed';
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' ? cause.message : error.message;
}

async function post(delivery: Delivery, timeoutMs: number, stop: AbortSignal): Promise<Posted> {
  const { url, body, signature } = delivery;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wallet-signature': signature,
        'user-agent': 'wallet-sandbox',
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]),
    });
    // Only a complete answer counts: an endpoint that sends headers and then hangs acknowledged nothing.
    await response.arrayBuffer();
    return { status: response.status, error: null };
  } catch (error) {
    return { status: null, error: why(error, timeoutMs) };
  }
}

function noTarget(so: string): never {
  throw new SandboxError(409, `This sandbox has no webhookUrl, so ${so}.`);
}

/** Sends events to the current target, records every attempt, and stops retries on `close()`. @internal */
export class WebhookSender {
  target: WebhookTarget | undefined;
  readonly #retry: Required<WebhookRetryOptions>;
  readonly #now: () => Date;
  readonly #record: (attempt: SandboxDeliveryAttempt) => void;
  #stop = new AbortController();
  // Bumped by forget(): attempts of deliveries made before it are not recorded in the new state.
  #generation = 0;
  readonly #pending = new Set<Promise<WebhookOutcome>>();
  // Never reset, so an id names one delivery for the sandbox's whole life.
  #deliveries = 0;

  constructor(
    target: WebhookTarget | undefined,
    retry: WebhookRetryOptions | undefined,
    now: () => Date,
    record: (attempt: SandboxDeliveryAttempt) => void,
  ) {
    this.target = target;
    this.#retry = { attempts: 5, delayMs: 50, maxDelayMs: 10_000, timeoutMs: 2000, ...retry };
    this.#now = now;
    this.#record = record;
  }

  /** Remembers the `charge.success` of a charge just paid (for redelivery), and sends it. */
  sendPaid(state: SandboxState, charge: SandboxCharge): Promise<WebhookDelivery | null> {
    const { reference, amount, customer } = charge;
    const data = { reference, amount, customer: { handle: customer.handle } };
    const sent = { event: 'charge.success', data };
    state.sentEvents.set(reference, sent);
    return this.#send(reference, sent);
  }

  /** Sends a charge's remembered event again; a `SandboxError` says why there is nothing to send. */
  async resend(state: SandboxState, reference: string): Promise<WebhookDelivery> {
    if (!state.charges.has(reference))
      throw new SandboxError(404, `No charge with reference '${reference}'.`);
    const sent = state.sentEvents.get(reference);
    if (sent === undefined)
      throw new SandboxError(
        409,
        `No webhook was sent for '${reference}': only an authorized charge has one.`,
      );
    return (await this.#send(reference, sent)) ?? noTarget('there is nothing to redeliver');
  }

  /** Sends a past delivery again, byte for byte, to the current target, as a new delivery. */
  async replay(state: SandboxState, id: string): Promise<WebhookDelivery> {
    const past = state.deliveries.toArray().find((attempt) => attempt.id === id);
    if (past === undefined)
      throw new SandboxError(
        404,
        `No delivery '${id}' (the sandbox keeps the newest historyLimit attempts).`,
      );
    const delivery = await this.#send(past.reference, { event: past.event, data: null }, past);
    return delivery ?? noTarget('there is nowhere to replay to');
  }

  /** Stops the retries under way and waits for them; ready to send again afterwards. */
  async close(): Promise<void> {
    this.#stop.abort();
    await Promise.all(this.#pending);
    this.#stop = new AbortController();
  }

  /** Stops the retries under way without waiting (a reset): they neither reach the endpoint nor get recorded. */
  forget(): void {
    this.#generation += 1;
    this.#stop.abort();
    this.#stop = new AbortController();
  }

  // Resolves once the first attempt is answered (never rejects); `null` without a target.
  #send(reference: string, sent: SentEvent, signed?: SignedWebhook): Promise<WebhookDelivery | null> {
    const target = this.target;
    if (target === undefined) return Promise.resolve(null);
    this.#deliveries += 1;
    const { body, signature } = signed ?? signWebhook(webhookBody(sent.event, sent.data), target.secret);
    const id = `dlv_${this.#deliveries}`;
    const delivery = { id, event: sent.event, reference, url: target.url, body, signature };
    return new Promise((resolve) => {
      const settled: Promise<WebhookOutcome> = this.#run(delivery, (first) =>
        resolve({ delivered: first.ok, attempts: [first], retrying: first.nextRetryAt !== null, settled }),
      );
      this.#pending.add(settled);
      void settled.then(() => this.#pending.delete(settled));
    });
  }

  async #run(delivery: Delivery, onFirst: (first: SandboxDeliveryAttempt) => void): Promise<WebhookOutcome> {
    const { id, event, reference, url, body, signature } = delivery;
    const retry = this.#retry;
    const stop = this.#stop.signal;
    const generation = this.#generation;
    const attempts: SandboxDeliveryAttempt[] = [];
    for (let attempt = 1; attempt <= retry.attempts; attempt += 1) {
      const started = this.#now();
      const clock = performance.now();
      const { status, error } = await post(delivery, retry.timeoutMs, stop);
      const ok = status !== null && status >= 200 && status < 300;
      const more = !ok && attempt < retry.attempts && !stop.aborted;
      // Doubling from delayMs before each later attempt, capped.
      const wait = more ? Math.min(retry.delayMs * 2 ** Math.min(attempt - 1, 30), retry.maxDelayMs) : 0;
      // One reading of the attempt's length dates the retry too: a second clock read drifts under load.
      const durationMs = Math.round(performance.now() - clock);
      const record: SandboxDeliveryAttempt = Object.freeze({
        id,
        event,
        reference,
        url,
        attempt,
        of: retry.attempts,
        ok,
        status,
        error: error ?? (ok ? null : `HTTP ${status}`),
        body,
        signature,
        at: started.toISOString(),
        durationMs,
        nextRetryAt: more ? new Date(started.getTime() + durationMs + wait).toISOString() : null,
      });
      attempts.push(record);
      if (generation === this.#generation) this.#record(record);
      if (attempt === 1) onFirst(record);
      if (!more) return { delivered: ok, attempts };
      try {
        // Holds the process open (a script awaiting `settled` must not exit first); close() ends it.
        await sleep(wait, undefined, { signal: stop });
      } catch {
        break;
      }
    }
    return { delivered: false, attempts };
  }
}
