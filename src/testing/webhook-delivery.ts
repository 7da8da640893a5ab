/**
 * Delivering a webhook as the service would: signed exactly as the SDK verifies, POSTed with
 * global `fetch`, retried with doubling delays while the merchant's endpoint fails or is too slow,
 * and every attempt recorded. The spec shows no retry schedule; the sandbox's defaults are short so
 * a merchant's test suite never waits long on an endpoint that is down.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { signWebhook } from '../webhooks/sign.js';
import type { SandboxDeliveryAttempt } from './state.js';

/** How the sandbox retries a webhook delivery. */
export interface WebhookRetryOptions {
  /**
   * Attempts in all, the first included.
   * @default 5
   */
  attempts?: number;
  /**
   * Delay before the second attempt, ms; it doubles before each later one.
   * @default 50
   */
  delayMs?: number;
  /**
   * How long one attempt may take, from sending to the end of the endpoint's answer, ms.
   * @default 2000
   */
  timeoutMs?: number;
}

/** How a delivery went. */
export interface WebhookOutcome {
  /** True when an attempt got a 2xx answer. */
  readonly delivered: boolean;
  /** Every attempt, in order. */
  readonly attempts: readonly SandboxDeliveryAttempt[];
}

/** What one delivery needs. @internal */
export interface Delivery {
  url: string;
  secret: string;
  event: string;
  reference: string;
  data: unknown;
  retry: Required<WebhookRetryOptions>;
  now: () => Date;
  /** Called with each attempt as it ends, so a test sees attempts while later ones are pending. */
  record: (attempt: SandboxDeliveryAttempt) => void;
}

/** Fills in and checks the retry options. @internal */
export function retryOptions(options: WebhookRetryOptions = {}): Required<WebhookRetryOptions> {
  const resolved = { attempts: 5, delayMs: 50, timeoutMs: 2000, ...options };
  if (!Number.isSafeInteger(resolved.attempts) || resolved.attempts < 1) {
    throw new TypeError('webhookRetry.attempts must be a whole number of at least 1.');
  }
  for (const key of ['delayMs', 'timeoutMs'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) {
      throw new TypeError(`webhookRetry.${key} must be a number of milliseconds, 0 or more.`);
    }
  }
  return resolved;
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`;
  }
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
  const signal = AbortSignal.timeout(delivery.retry.timeoutMs);
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

/** Delivers one event, retrying until a 2xx or the last attempt. Never throws. @internal */
export async function deliverWebhook(delivery: Delivery): Promise<WebhookOutcome> {
  const { body, signature } = signWebhook({ event: delivery.event, data: delivery.data }, delivery.secret);
  const attempts: SandboxDeliveryAttempt[] = [];
  for (let attempt = 1; attempt <= delivery.retry.attempts; attempt += 1) {
    if (attempt > 1) await sleep(delivery.retry.delayMs * 2 ** (attempt - 2));
    const at = delivery.now().toISOString();
    const { status, error } = await attemptOnce(delivery, body, signature);
    const ok = status !== null && status >= 200 && status < 300;
    const record: SandboxDeliveryAttempt = Object.freeze({
      event: delivery.event,
      reference: delivery.reference,
      url: delivery.url,
      attempt,
      ok,
      status,
      error: error ?? (ok ? null : `HTTP ${status}`),
      body,
      signature,
      at,
    });
    attempts.push(record);
    delivery.record(record);
    if (ok) return { delivered: true, attempts };
  }
  return { delivered: false, attempts };
}
