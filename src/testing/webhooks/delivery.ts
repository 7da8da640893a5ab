/**
 * Delivering a webhook as the service would: signed exactly as the SDK verifies, POSTed with
 * global `fetch`, retried with doubling delays (capped) while the merchant's endpoint fails or is
 * too slow, and every attempt recorded. The caller learns how the first attempt went; the retries
 * go on in the background, so a failing endpoint never holds `authorize()` for the whole schedule.
 * The spec shows no retry schedule; the defaults are short so a test suite never waits long.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { signWebhook } from '../../webhooks/sign.js';
import type { SandboxDeliveryAttempt } from '../state/records.js';
import { webhookBody } from './body.js';

/** How the sandbox retries a webhook delivery. */
export interface WebhookRetryOptions {
  /**
   * Attempts in all, the first included; from 1 to 20.
   * @default 5
   */
  attempts?: number;
  /**
   * Delay before the second attempt, ms; it doubles before each later one, up to `maxDelayMs`.
   * @default 50
   */
  delayMs?: number;
  /**
   * The longest delay between two attempts, ms.
   * @default 10000
   */
  maxDelayMs?: number;
  /**
   * How long one attempt may take, from sending to the end of the endpoint's answer, ms.
   * @default 2000
   */
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

/** What one delivery needs. @internal */
export interface Delivery {
  /** The delivery's id, shared by its attempts. */
  id: string;
  url: string;
  secret: string;
  event: string;
  reference: string;
  data: unknown;
  /** The bytes of a past delivery, sent again as they are (a replay); signed afresh otherwise. */
  signed: { body: string; signature: string } | undefined;
  retry: Required<WebhookRetryOptions>;
  now: () => Date;
  /** Aborted by `sandbox.close()`: the attempt under way and the schedule stop. */
  signal: AbortSignal;
  /** Called with each attempt as it ends, so a test sees attempts while later ones are pending. */
  record: (attempt: SandboxDeliveryAttempt) => void;
}

/** Fills in the retry options (checked by {@link retryRule} before). @internal */
export function retryOptions(options: WebhookRetryOptions = {}): Required<WebhookRetryOptions> {
  return { attempts: 5, delayMs: 50, maxDelayMs: 10_000, timeoutMs: 2000, ...options };
}

/** The wait before attempt `attempt` (2 or more): doubling from `delayMs`, capped. @internal */
export function retryDelay(retry: Required<WebhookRetryOptions>, attempt: number): number {
  return Math.min(retry.delayMs * 2 ** Math.min(attempt - 2, 30), retry.maxDelayMs);
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error && error.name === 'AbortError') return 'stopped: the sandbox closed';
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

async function attemptOnce(
  delivery: Delivery,
  body: string,
  signature: string,
): Promise<{ status: number | null; error: string | null }> {
  const signal = AbortSignal.any([AbortSignal.timeout(delivery.retry.timeoutMs), delivery.signal]);
  try {
    const response = await fetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wallet-signature': signature,
        'user-agent': 'wallet-sandbox',
      },
      body,
      redirect: 'manual',
      signal,
    });
    // The answer counts only once it is complete: an endpoint that sends headers and then hangs has
    // not acknowledged anything.
    await response.arrayBuffer();
    return { status: response.status, error: null };
  } catch (error) {
    return { status: null, error: describe(error, delivery.retry.timeoutMs) };
  }
}

async function run(
  delivery: Delivery,
  onFirst: (attempt: SandboxDeliveryAttempt) => void,
): Promise<WebhookOutcome> {
  const { body, signature } =
    delivery.signed ?? signWebhook(webhookBody(delivery.event, delivery.data), delivery.secret);
  const attempts: SandboxDeliveryAttempt[] = [];
  for (let attempt = 1; attempt <= delivery.retry.attempts; attempt += 1) {
    const started = delivery.now();
    const clock = performance.now();
    const { status, error } = await attemptOnce(delivery, body, signature);
    const ok = status !== null && status >= 200 && status < 300;
    const more = !ok && attempt < delivery.retry.attempts && !delivery.signal.aborted;
    const wait = more ? retryDelay(delivery.retry, attempt + 1) : 0;
    const record: SandboxDeliveryAttempt = Object.freeze({
      id: delivery.id,
      event: delivery.event,
      reference: delivery.reference,
      url: delivery.url,
      attempt,
      of: delivery.retry.attempts,
      ok,
      status,
      error: error ?? (ok ? null : `HTTP ${status}`),
      body,
      signature,
      at: started.toISOString(),
      durationMs: Math.round(performance.now() - clock),
      nextRetryAt: more ? new Date(delivery.now().getTime() + wait).toISOString() : null,
    });
    attempts.push(record);
    delivery.record(record);
    if (attempt === 1) onFirst(record);
    if (!more) return { delivered: ok, attempts };
    try {
      // Holds the process open (a script awaiting `settled` must not exit first); the schedule is
      // bounded by attempts and maxDelayMs, and close() ends it.
      await sleep(wait, undefined, { signal: delivery.signal });
    } catch {
      break;
    }
  }
  return { delivered: false, attempts };
}

/**
 * Starts delivering one event. Resolves once the first attempt is answered (or failed); later
 * attempts go on in the background. Never rejects.
 * @internal
 */
export function startDelivery(delivery: Delivery): Promise<WebhookDelivery> {
  return new Promise((resolve) => {
    const settled: Promise<WebhookOutcome> = run(delivery, (first) =>
      resolve({ delivered: first.ok, attempts: [first], retrying: first.nextRetryAt !== null, settled }),
    );
  });
}
