/**
 * Refunds in the sandbox: only of a SUCCESS charge, partial or full, and never more in total than
 * was paid. A refund is PROCESSED at once; the sandbox has no slow bank to wait for.
 */
import { randomUUID } from 'node:crypto';

import { findCharge } from './charges.js';
import { SandboxError } from './errors.js';
import type { SandboxRefund } from './records.js';
import type { SandboxState } from './store.js';

/** What a refund asks for. @internal */
export interface RefundRequest {
  reference: string;
  /** Kobo; `undefined` refunds all that is left. */
  amount: number | undefined;
  reason: string | undefined;
}

/**
 * Refunds a charge. A charge that is not SUCCESS answers 409, because the refusal is about the
 * charge's state (it may yet be paid); an amount beyond what is left answers 422, because the
 * request itself can never succeed.
 * @internal
 */
export function refundCharge(state: SandboxState, request: RefundRequest, now: Date): SandboxRefund {
  const { reference } = request;
  const charge = findCharge(state, reference, now);
  if (charge.status !== 'SUCCESS') {
    throw new SandboxError(
      409,
      `Charge '${reference}' is ${charge.status}; only a SUCCESS charge can be refunded.`,
    );
  }
  const left = charge.amount - charge.refundedAmount;
  if (left === 0) throw new SandboxError(422, `Charge '${reference}' is already fully refunded.`);
  const amount = request.amount ?? left;
  if (amount > left) {
    throw new SandboxError(
      422,
      `Refund amount ${amount} exceeds what is left to refund on '${reference}' (${left} Kobo).`,
    );
  }
  charge.refundedAmount += amount;
  const refund: SandboxRefund = {
    refundReference: newRefundReference(),
    reference,
    amount,
    currency: 'NGN',
    status: 'PROCESSED',
    reason: request.reason ?? null,
    refundedAt: now.toISOString(),
  };
  state.refunds.push(refund);
  return refund;
}

/** A unique refund reference, as the refund endpoint returns it. @internal */
export function newRefundReference(): string {
  return `rfd_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
