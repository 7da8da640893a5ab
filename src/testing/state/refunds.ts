/**
 * Refunds in the sandbox: only of a SUCCESS charge, partial or full, and never more in total than
 * was paid. A refund is PROCESSED at once; the sandbox has no slow bank to wait for.
 */
import { randomUUID } from 'node:crypto';

import type { Refund } from '../../types.js';
import { findCharge } from './charges.js';
import { SandboxError, success } from '../endpoints/envelope.js';
import type { SavedResponse } from '../endpoints/envelope.js';
import type { SandboxState } from './store.js';
import type { JsonObject } from '../endpoints/validate.js';
import { optionalAmount, optionalString, requireString } from '../endpoints/validate.js';

/**
 * POST /v1/refunds. A charge that is not SUCCESS answers 409, because the refusal is about the
 * charge's state (it may yet be paid); an amount beyond what is left answers 422, because the
 * request itself can never succeed.
 * @internal
 */
export function createRefund(state: SandboxState, body: JsonObject, now: Date): SavedResponse {
  const reference = requireString(body, 'reference');
  const requested = optionalAmount(body, 'amount');
  const reason = optionalString(body, 'reason');
  const charge = findCharge(state, reference, now);
  if (charge.status !== 'SUCCESS') {
    throw new SandboxError(
      409,
      `Charge '${reference}' is ${charge.status}; only a SUCCESS charge can be refunded.`,
    );
  }
  const left = charge.amount - charge.refundedAmount;
  if (left === 0) throw new SandboxError(422, `Charge '${reference}' is already fully refunded.`);
  const amount = requested ?? left;
  if (amount > left) {
    throw new SandboxError(
      422,
      `Refund amount ${amount} exceeds what is left to refund on '${reference}' (${left} Kobo).`,
    );
  }
  charge.refundedAmount += amount;
  const refund = {
    refundReference: `rfd_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    reference,
    amount,
    currency: 'NGN',
    status: 'PROCESSED',
    reason: reason ?? null,
    refundedAt: now.toISOString(),
  } as const;
  state.refunds.push(refund);
  const data: Refund = {
    refundReference: refund.refundReference,
    amount,
    currency: refund.currency,
    status: refund.status,
    refundedAt: refund.refundedAt,
  };
  return success(data, 'Refund processed');
}
