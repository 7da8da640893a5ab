/** What a merchant's test reads: the records, plain data frozen when handed out, and the sandbox's one error. */
import { WalletError, named } from '../../errors/base.js';
import type { AuthChannel } from '../../types.js';
import type { SandboxCustomer } from './customers.js';

/**
 * Where a charge is. `RESOLVED`: resolved, not dispatched. `EXPIRED`: its prompt ran out or `expire()` ended
 * it. Verify reports `PENDING_SCAN` as `PENDING_AUTHORIZATION` and `EXPIRED` as `FAILED`.
 */
export type SandboxChargeStatus =
  'RESOLVED' | 'PENDING_AUTHORIZATION' | 'PENDING_SCAN' | 'SUCCESS' | 'FAILED' | 'EXPIRED';

/** A charge, as the sandbox holds it. */
export interface SandboxCharge {
  /** The merchant's reference. */
  readonly reference: string;
  /** Amount registered at resolve, Kobo. */
  readonly amount: number;
  /** Always `NGN`. */
  readonly currency: 'NGN';
  /** Who is paying. */
  readonly customer: Pick<SandboxCustomer, 'handle' | 'phone' | 'name'>;
  /** Where the charge is. */
  readonly status: SandboxChargeStatus;
  /** The bank of the latest dispatch, or `null` before one. */
  readonly bankId: string | null;
  /** The channel of the latest dispatch, or `null` before one. */
  readonly channel: AuthChannel | null;
  /** The latest dispatch's description, if any. */
  readonly description: string | null;
  /** The latest dispatch's metadata, if any. */
  readonly metadata: Readonly<Record<string, unknown>> | null;
  /** The QR code URL of a `wallet_qr` dispatch. */
  readonly qrCodeUrl: string | null;
  /** When the latest prompt expires (ISO-8601). */
  readonly expiresAt: string | null;
  /** How many prompts were sent (dispatches that the sandbox acted on; replays do not count). */
  readonly prompts: number;
  /** Gateway fee, Kobo, once `SUCCESS`. */
  readonly fee: number | null;
  /** Amount less fee, Kobo, once `SUCCESS`. */
  readonly netAmount: number | null;
  /** When it was paid, once `SUCCESS`. */
  readonly paidAt: string | null;
  /** Kobo refunded so far. */
  readonly refundedAmount: number;
  /** When resolve registered it. */
  readonly createdAt: string;
}

/** A refund the sandbox processed. */
export interface SandboxRefund {
  /** Unique refund reference, as returned by the refund endpoint. */
  readonly refundReference: string;
  /** The charge's reference. */
  readonly reference: string;
  /** Kobo refunded. */
  readonly amount: number;
  /** Always `NGN`. */
  readonly currency: 'NGN';
  /** Always `PROCESSED`: the sandbox refunds at once. */
  readonly status: 'PROCESSED';
  /** The merchant's reason, if given. */
  readonly reason: string | null;
  /** When it was made. */
  readonly refundedAt: string;
}

/** Money taken from a customer's account: one per successful authorization, never more. */
export interface SandboxDebit {
  /** The charge's reference. */
  readonly reference: string;
  /** Kobo debited. */
  readonly amount: number;
  /** The customer's handle. */
  readonly handle: string;
  /** The bank account debited. */
  readonly bankId: string;
  /** When. */
  readonly at: string;
}

/** One attempt to deliver a webhook to the merchant's endpoint. */
export interface SandboxDeliveryAttempt {
  /** The delivery (`dlv_1`, ...) of this attempt and its retries; `sandbox.replay(id)` sends it again. */
  readonly id: string;
  /** Event kind, for example `charge.success`. */
  readonly event: string;
  /** The charge's reference. */
  readonly reference: string;
  /** The endpoint posted to. */
  readonly url: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Attempts allowed in all (the `webhookRetry.attempts` option). */
  readonly of: number;
  /** True when the endpoint answered 2xx in time. */
  readonly ok: boolean;
  /** The endpoint's HTTP status, or `null` when none arrived (refused, timed out). */
  readonly status: number | null;
  /** Why the attempt failed, for example `HTTP 500`, `ECONNREFUSED` or `timed out after 2000 ms`; `null` when it did not. */
  readonly error: string | null;
  /** The exact body sent. */
  readonly body: string;
  /** The `X-Wallet-Signature` sent. */
  readonly signature: string;
  /** When the attempt started. */
  readonly at: string;
  /** How long the attempt took, ms. */
  readonly durationMs: number;
  /** When the next attempt is scheduled, or `null` when this one succeeded or was the last. */
  readonly nextRetryAt: string | null;
}

/** One request the sandbox answered (test-control routes under `/_sandbox/` are not recorded). */
export interface SandboxRequestRecord {
  /** HTTP method. */
  readonly method: string;
  /** Path, percent-encoded as received. */
  readonly path: string;
  /** The `X-Idempotency-Key` sent, or `null`. */
  readonly idempotencyKey: string | null;
  /** The HTTP status answered. */
  readonly status: number;
  /** True when the answer was a saved response replayed for a repeated idempotency key. */
  readonly replayed: boolean;
  /** The caller's IP address as the sandbox saw it. */
  readonly clientIp: string;
  /** The fault injected (see the `faults` option), or `null`. */
  readonly fault: SandboxFaultKind | null;
  /** When it arrived. */
  readonly at: string;
  /** How long answering took, ms (injected latency included). */
  readonly durationMs: number;
}

/**
 * How a faulty request fails. `error`: a 5xx, nothing done. `reset`: the connection drops, nothing done.
 * `reset-after`: done, then the connection drops (an unknown outcome; a retry with the same idempotency key
 * resolves it). `rate-limit` (only when `kinds` names it): a 429 with the faults' `retryAfter`, nothing done.
 */
export type SandboxFaultKind = 'error' | 'reset' | 'reset-after' | 'rate-limit';

/**
 * A request refused, or a test control called on a charge in the wrong state, with its HTTP status
 * (over HTTP and in process alike). A {@link WalletError}.
 *
 * @example
 * ```ts
 * await expect(sandbox.authorize('order_unknown')).rejects.toMatchObject({ name: 'SandboxError', status: 404 });
 * ```
 */
export class SandboxError extends WalletError {
  /** @param status - the HTTP status of this refusal. @param message - the envelope's `message`, for a person. */
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

named({ SandboxError });
