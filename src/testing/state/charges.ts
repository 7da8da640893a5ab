/**
 * The charge's life in the sandbox: resolve registers it, dispatch sends a prompt, and the test
 * controls play the customer (authorize, decline) or the clock (expire). Each function changes the
 * state synchronously and returns the envelope to answer with, or throws a {@link SandboxError}.
 */
import { randomUUID } from 'node:crypto';

import type { AuthChannel, ChargeDispatch, ResolvedCustomer, Transaction } from '../../types.js';
import { findCustomer, linkedBanks, publicProfile } from './customers.js';
import { SandboxError, success } from '../endpoints/envelope.js';
import type { SavedResponse } from '../endpoints/envelope.js';
import type { SandboxCharge, SandboxState } from './store.js';
import type { JsonObject } from '../endpoints/validate.js';
import { optionalObject, optionalString, requireAmount, requireOneOf, requireString } from '../endpoints/validate.js';

const FEE_CAP = 200_000;
const AUTH_CHANNELS: readonly AuthChannel[] = ['wallet_push', 'wallet_qr'];

type Charge = { -readonly [K in keyof SandboxCharge]: SandboxCharge[K] };

/**
 * The service's fee: 2% of the amount, rounded half up to a whole Kobo, capped at 200 000 Kobo.
 * Computed here on its own, not with the SDK's `estimateFee`, so a test comparing the two proves something.
 * @internal
 */
function sandboxFee(amount: number): number {
  return Math.min(Math.floor((amount * 2 + 50) / 100), FEE_CAP);
}

/** The charge for a reference, with a prompt that ran out moved to EXPIRED first. @internal */
export function findCharge(state: SandboxState, reference: string, now: Date): Charge {
  const charge = state.charges.get(reference);
  if (!charge) throw new SandboxError(404, `No charge with reference '${reference}'.`);
  const pending = charge.status === 'PENDING_AUTHORIZATION' || charge.status === 'PENDING_SCAN';
  if (pending && charge.expiresAt !== null && Date.parse(charge.expiresAt) <= now.getTime()) {
    charge.status = 'EXPIRED';
  }
  return charge;
}

/** POST /v1/charges/resolve-handle. @internal */
export function resolveHandle(state: SandboxState, body: JsonObject, now: Date): SavedResponse {
  const handle = requireString(body, 'handle');
  const amount = requireAmount(body, 'amount');
  const reference = requireString(body, 'reference');
  const customer = findCustomer(state.customers, handle);
  if (!customer) throw new SandboxError(404, `No customer with handle or phone '${handle}'.`);
  const existing = state.charges.get(reference);
  if (existing) {
    // Resolving the same order again (a page reload) is harmless; reusing its reference for another
    // amount or customer is the duplicate billing the reference exists to prevent.
    if (existing.amount !== amount || existing.customer.handle !== customer.handle) {
      throw new SandboxError(
        409,
        `Duplicate reference: '${reference}' is already registered for another amount or customer.`,
      );
    }
  } else {
    state.charges.set(reference, {
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
      createdAt: now.toISOString(),
    });
  }
  const data: ResolvedCustomer = {
    customer: publicProfile(customer),
    availableAuthChannels: [
      { id: 'wallet_push', name: 'Wallet push notification', isRecommended: true },
      { id: 'wallet_qr', name: 'Wallet QR code' },
    ],
    linkedBanks: linkedBanks(customer),
  };
  return success(data, 'Customer resolved');
}

/** When and where a dispatch happens. @internal */
export interface DispatchContext {
  now: Date;
  /** How long the prompt lives, ms. */
  ttlMs: number;
  /** The absolute URL QR pages live under, ending in `/`: the sandbox's own, as the caller reached it. */
  pageBase: string;
}

/** POST /v1/charges/dispatch. @internal */
export function dispatchCharge(state: SandboxState, body: JsonObject, at: DispatchContext): SavedResponse {
  const { now } = at;
  const reference = requireString(body, 'reference');
  const bankId = requireString(body, 'bankId');
  const authChannel = requireOneOf(body, 'authChannel', AUTH_CHANNELS);
  const description = optionalString(body, 'description');
  const metadata = optionalObject(body, 'metadata');
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
  charge.status = authChannel === 'wallet_push' ? 'PENDING_AUTHORIZATION' : 'PENDING_SCAN';
  charge.bankId = bankId;
  charge.channel = authChannel;
  charge.description = description ?? null;
  charge.metadata = metadata ?? null;
  charge.expiresAt = new Date(now.getTime() + at.ttlMs).toISOString();
  // The replaced prompt's QR page goes, so QR pages never outnumber charges.
  if (charge.qrCodeUrl !== null) state.qrCodes.delete(charge.qrCodeUrl.slice(-32));
  charge.qrCodeUrl = null;
  if (authChannel === 'wallet_qr') {
    const id = randomUUID().replaceAll('-', '');
    state.qrCodes.set(id, reference);
    charge.qrCodeUrl = `${at.pageBase}${id}`;
  }
  charge.prompts += 1;
  const data: ChargeDispatch = {
    reference,
    status: charge.status,
    authChannel,
    ...(charge.qrCodeUrl === null ? {} : { qrCodeUrl: charge.qrCodeUrl }),
    expiresAt: charge.expiresAt,
  };
  return success(data, authChannel === 'wallet_push' ? 'Authorization prompt sent' : 'QR code generated');
}

/** The verify response's data for a charge. @internal */
function toTransaction(charge: SandboxCharge): Transaction {
  const paid = charge.status === 'SUCCESS';
  const status =
    charge.status === 'PENDING_SCAN'
      ? 'PENDING_AUTHORIZATION'
      : charge.status === 'EXPIRED'
        ? 'FAILED'
        : charge.status;
  return {
    reference: charge.reference,
    amount: charge.amount,
    currency: charge.currency,
    fee: charge.fee,
    netAmount: charge.netAmount,
    status,
    channel: charge.channel ?? 'wallet_push',
    customer: { ...charge.customer },
    settlement: paid && charge.paidAt !== null ? { status: 'SETTLED', settledAt: charge.paidAt } : null,
    paidAt: charge.paidAt,
  };
}

/** GET /v1/charges/verify/{reference}. The verify shape has no `message`. @internal */
export function verifyCharge(state: SandboxState, reference: string, now: Date): SavedResponse {
  const charge = findCharge(state, reference, now);
  if (charge.status === 'RESOLVED') {
    throw new SandboxError(
      404,
      `Charge '${reference}' was resolved but never dispatched; there is nothing to verify.`,
    );
  }
  return success(toTransaction(charge));
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
