/** The charge's life: resolve, dispatch, authorize or decline (or expire), refund. Synchronous. */
import { randomUUID } from 'node:crypto';

import type { AuthChannel } from '../../types.js';
import type { SandboxCustomer } from './customers.js';
import { SandboxError, type SandboxCharge, type SandboxRefund } from './records.js';
import { isWaiting, type Charge, type SandboxState } from './store.js';

/** The service's fee: 2%, rounded half up, capped at 200 000 Kobo (not the SDK's `estimateFee`). @internal */
export function sandboxFee(amount: number): number {
  return Math.min(Math.floor((amount * 2 + 50) / 100), 200_000);
}

/** The charge, moved to EXPIRED if its prompt ran out by `now`: every reader sees what verify says. @internal */
export function expireIfDue(charge: Charge, now: Date): Charge {
  const pending = charge.status === 'PENDING_AUTHORIZATION' || charge.status === 'PENDING_SCAN';
  if (pending && !isWaiting(charge, now)) charge.status = 'EXPIRED';
  return charge;
}

/** The charge for a reference, with a prompt that ran out moved to EXPIRED first. @internal */
export function findCharge(state: SandboxState, reference: string, now: Date): Charge {
  const charge = state.charges.get(reference);
  if (!charge) throw new SandboxError(404, `No charge with reference '${reference}'.`);
  return expireIfDue(charge, now);
}

/** A charge as resolve registers it: nothing dispatched, nothing paid. @internal */
export function newCharge(reference: string, amount: number, customer: SandboxCustomer, now: Date): Charge {
  const { handle, phone, name } = customer;
  return {
    reference,
    amount,
    currency: 'NGN',
    customer: { handle, phone, name },
    status: 'RESOLVED',
    bankId: null,
    channel: null,
    description: null,
    metadata: null,
    qrCodeUrl: null,
    expiresAt: null,
    prompts: 0,
    fee: null,
    netAmount: null,
    paidAt: null,
    refundedAmount: 0,
    createdAt: now.toISOString(),
  };
}

/** Registers a new charge; the same order again is harmless, another amount or customer is 409. @internal */
export function registerCharge(state: SandboxState, charge: Charge, now: Date): void {
  const { reference, amount, customer } = charge;
  const existing = state.charges.get(reference);
  if (existing === undefined) return state.admit(charge, now);
  if (existing.amount !== amount || existing.customer.handle !== customer.handle)
    throw new SandboxError(
      409,
      `Duplicate reference: '${reference}' is already registered for another amount or customer.`,
    );
}

/** What a dispatch asks for; `pageBase` is the absolute URL QR pages live under. @internal */
export interface Prompt {
  reference: string;
  bankId: string;
  channel: AuthChannel;
  description: string | undefined;
  metadata: Record<string, unknown> | undefined;
  now: Date;
  ttlMs: number;
  pageBase: string;
}

/** Sends the customer a prompt (push) or makes a QR code: the charge waits for the customer. @internal */
export function promptCharge(state: SandboxState, prompt: Prompt): SandboxCharge {
  const { reference, bankId, now } = prompt;
  const charge = findCharge(state, reference, now);
  if (charge.status === 'SUCCESS')
    throw new SandboxError(409, `Charge '${reference}' is already paid; it cannot be dispatched again.`);
  const bank = state.customers.get(charge.customer.handle)?.banks.find((b) => b.bankId === bankId);
  if (!bank || bank.mandateStatus !== 'ACTIVE')
    throw new SandboxError(
      422,
      `bankId '${bankId}' is not a bank with an ACTIVE mandate of ${charge.customer.handle}; use one from linkedBanks.`,
    );
  // A new prompt replaces the last one, on the one charge per reference: authorizing debits once.
  charge.status = prompt.channel === 'wallet_push' ? 'PENDING_AUTHORIZATION' : 'PENDING_SCAN';
  charge.bankId = bankId;
  charge.channel = prompt.channel;
  charge.description = prompt.description ?? null;
  charge.metadata = prompt.metadata ?? null;
  charge.expiresAt = new Date(now.getTime() + prompt.ttlMs).toISOString();
  // The replaced prompt's QR page goes, so QR pages never outnumber charges.
  if (charge.qrCodeUrl !== null) state.qrCodes.delete(charge.qrCodeUrl.slice(-32));
  charge.qrCodeUrl = null;
  if (prompt.channel === 'wallet_qr') {
    const id = randomUUID().replaceAll('-', '');
    state.qrCodes.set(id, reference);
    charge.qrCodeUrl = `${prompt.pageBase}${id}`;
  }
  charge.prompts += 1;
  return charge;
}

/** A charge still waiting for its customer, or a 409 saying why `action` cannot be done. */
function pending(state: SandboxState, reference: string, now: Date, action: string): Charge {
  const charge = findCharge(state, reference, now);
  if (charge.status !== 'PENDING_AUTHORIZATION' && charge.status !== 'PENDING_SCAN')
    throw new SandboxError(
      409,
      `Cannot ${action} '${reference}': it is ${charge.status}, not waiting for the customer.`,
    );
  return charge;
}

/** The debit of a paid charge, kept as the customer's record. @internal */
export function recordDebit(state: SandboxState, charge: Charge): void {
  const { reference, amount, customer, bankId, paidAt } = charge;
  state.debits.push({ reference, amount, handle: customer.handle, bankId: bankId ?? '', at: paidAt ?? '' });
}

/** The customer authorizes: SUCCESS with fee and one debit. @internal */
export function authorizeCharge(state: SandboxState, reference: string, now: Date): SandboxCharge {
  const charge = pending(state, reference, now, 'authorize');
  charge.status = 'SUCCESS';
  charge.fee = sandboxFee(charge.amount);
  charge.netAmount = charge.amount - charge.fee;
  charge.paidAt = now.toISOString();
  recordDebit(state, charge);
  return charge;
}

/** The customer declines: FAILED. @internal */
export function declineCharge(state: SandboxState, reference: string, now: Date): SandboxCharge {
  const charge = pending(state, reference, now, 'decline');
  charge.status = 'FAILED';
  return charge;
}

/** The prompt runs out now instead of at `expiresAt`. @internal */
export function expireCharge(state: SandboxState, reference: string, now: Date): SandboxCharge {
  const charge = pending(state, reference, now, 'expire');
  charge.status = 'EXPIRED';
  charge.expiresAt = now.toISOString();
  return charge;
}

/** Keeps a refund record, PROCESSED at once: the sandbox has no slow bank. @internal */
export function recordRefund(
  state: SandboxState,
  reference: string,
  amount: number,
  reason: string | null,
  at: string,
): SandboxRefund {
  const refund: SandboxRefund = {
    refundReference: `rfd_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    reference,
    amount,
    currency: 'NGN',
    status: 'PROCESSED',
    reason,
    refundedAt: at,
  };
  state.refunds.push(refund);
  return refund;
}

/** Refunds a SUCCESS charge (all that is left without `amount`): not SUCCESS is 409, too much 422. @internal */
export function refundCharge(
  state: SandboxState,
  request: { reference: string; amount: number | undefined; reason: string | undefined },
  now: Date,
): SandboxRefund {
  const { reference } = request;
  const charge = findCharge(state, reference, now);
  if (charge.status !== 'SUCCESS')
    throw new SandboxError(
      409,
      `Charge '${reference}' is ${charge.status}; only a SUCCESS charge can be refunded.`,
    );
  const left = charge.amount - charge.refundedAmount;
  if (left === 0) throw new SandboxError(422, `Charge '${reference}' is already fully refunded.`);
  const amount = request.amount ?? left;
  if (amount > left)
    throw new SandboxError(
      422,
      `Refund amount ${amount} exceeds what is left to refund on '${reference}' (${left} Kobo).`,
    );
  charge.refundedAmount += amount;
  return recordRefund(state, reference, amount, request.reason ?? null, now.toISOString());
}
