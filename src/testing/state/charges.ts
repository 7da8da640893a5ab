/**
 * The charge's life in the sandbox: resolve registers it, dispatch sends a prompt, and the test
 * controls play the customer (authorize, decline) or the clock (expire). Each function changes the
 * state synchronously and returns the charge, or throws a {@link SandboxError}; the endpoints turn
 * either into the service's answer.
 */
import { randomUUID } from 'node:crypto';

import type { AuthChannel } from '../../types.js';
import type { SandboxCustomer } from './customers.js';
import { SandboxError } from './errors.js';
import type { SandboxCharge } from './records.js';
import { isWaiting } from './store.js';
import type { Charge, SandboxState } from './store.js';

const FEE_CAP = 200_000;

/**
 * The service's fee: 2% of the amount, rounded half up to a whole Kobo, capped at 200 000 Kobo.
 * Computed here on its own, not with the SDK's `estimateFee`, so a test comparing the two proves something.
 * @internal
 */
export function sandboxFee(amount: number): number {
  return Math.min(Math.floor((amount * 2 + 50) / 100), FEE_CAP);
}

/** The charge for a reference, with a prompt that ran out moved to EXPIRED first. @internal */
export function findCharge(state: SandboxState, reference: string, now: Date): Charge {
  const charge = state.charges.get(reference);
  if (!charge) throw new SandboxError(404, `No charge with reference '${reference}'.`);
  const pending = charge.status === 'PENDING_AUTHORIZATION' || charge.status === 'PENDING_SCAN';
  if (pending && !isWaiting(charge, now)) charge.status = 'EXPIRED';
  return charge;
}

/** A charge as resolve registers it: nothing dispatched, nothing paid. @internal */
export function newCharge(
  reference: string,
  amount: number,
  customer: SandboxCustomer,
  now: Date,
  nowIso: string = now.toISOString(),
): Charge {
  return {
    reference,
    amount,
    currency: 'NGN',
    customer: { handle: customer.handle, phone: customer.phone, name: customer.name },
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
    createdAt: nowIso,
  };
}

/**
 * Registers a reference for an amount and a customer. Resolving the same order again (a page
 * reload) is harmless; reusing its reference for another amount or customer is the duplicate
 * billing the reference exists to prevent, and answers 409.
 * @internal
 */
export function registerCharge(
  state: SandboxState,
  reference: string,
  amount: number,
  customer: SandboxCustomer,
  now: Date,
): void {
  const existing = state.charges.get(reference);
  if (existing === undefined) return state.admit(newCharge(reference, amount, customer, now), now);
  if (existing.amount !== amount || existing.customer.handle !== customer.handle) {
    throw new SandboxError(
      409,
      `Duplicate reference: '${reference}' is already registered for another amount or customer.`,
    );
  }
}

/** What a dispatch asks for. @internal */
export interface Prompt {
  reference: string;
  bankId: string;
  channel: AuthChannel;
  description: string | undefined;
  metadata: Record<string, unknown> | undefined;
  now: Date;
  /** How long the prompt lives, ms. */
  ttlMs: number;
  /** The absolute URL QR pages live under, ending in `/`: the sandbox's own, as the caller reached it. */
  pageBase: string;
}

/** Sends the customer a prompt (push) or makes a QR code: the charge waits for the customer. @internal */
export function promptCharge(state: SandboxState, prompt: Prompt): SandboxCharge {
  const { reference, bankId, now } = prompt;
  const charge = findCharge(state, reference, now);
  if (charge.status === 'SUCCESS') {
    throw new SandboxError(409, `Charge '${reference}' is already paid; it cannot be dispatched again.`);
  }
  const customer = state.customers.get(charge.customer.handle);
  const bank = customer?.banks.find((b) => b.bankId === bankId);
  if (!bank || bank.mandateStatus !== 'ACTIVE') {
    throw new SandboxError(
      422,
      `bankId '${bankId}' is not a bank with an ACTIVE mandate of ${charge.customer.handle}; use one from linkedBanks.`,
    );
  }
  // A new prompt replaces the previous one (the customer missed it, or the merchant switched to QR);
  // there is still one charge per reference, so authorizing can debit only once.
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

function requirePending(charge: Charge, action: string): void {
  if (charge.status !== 'PENDING_AUTHORIZATION' && charge.status !== 'PENDING_SCAN') {
    throw new SandboxError(
      409,
      `Cannot ${action} '${charge.reference}': it is ${charge.status}, not waiting for the customer.`,
    );
  }
}

/** The customer authorizes: SUCCESS with fee, settlement and one debit. @internal */
export function authorizeCharge(state: SandboxState, reference: string, now: Date): SandboxCharge {
  const charge = findCharge(state, reference, now);
  requirePending(charge, 'authorize');
  const paidAt = now.toISOString();
  charge.status = 'SUCCESS';
  charge.fee = sandboxFee(charge.amount);
  charge.netAmount = charge.amount - charge.fee;
  charge.paidAt = paidAt;
  state.debits.push({
    reference,
    amount: charge.amount,
    handle: charge.customer.handle,
    bankId: charge.bankId ?? '',
    at: paidAt,
  });
  return charge;
}

/** The customer declines: FAILED. @internal */
export function declineCharge(state: SandboxState, reference: string, now: Date): SandboxCharge {
  const charge = findCharge(state, reference, now);
  requirePending(charge, 'decline');
  charge.status = 'FAILED';
  return charge;
}

/** The prompt runs out now instead of at `expiresAt`. @internal */
export function expireCharge(state: SandboxState, reference: string, now: Date): SandboxCharge {
  const charge = findCharge(state, reference, now);
  requirePending(charge, 'expire');
  charge.status = 'EXPIRED';
  charge.expiresAt = now.toISOString();
  return charge;
}
