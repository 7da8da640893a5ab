/**
 * The service's four endpoints: each reads its request (hand-written checks, 400 on a bad body),
 * changes the state through `state/`, and answers with the service's envelope. Synchronous, so an
 * idempotent replay around them is exact.
 */
import type { AuthChannel, ChargeDispatch, ResolvedCustomer, Settlement, Transaction } from '../../types.js';
import { findCharge, promptCharge, registerCharge } from '../state/charges.js';
import { findCustomer, linkedBanks, publicProfile } from '../state/customers.js';
import { SandboxError } from '../state/errors.js';
import type { SandboxCharge } from '../state/records.js';
import { refundCharge } from '../state/refunds.js';
import type { SandboxState } from '../state/store.js';
import { settlementTime } from '../state/clock.js';
import type { Clock } from '../state/clock.js';
import { success } from './envelope.js';
import type { SavedResponse } from './envelope.js';
import type { JsonObject } from './validate.js';
import {
  optionalAmount,
  optionalObject,
  optionalString,
  requireAmount,
  requireOneOf,
  requireString,
} from './validate.js';

const AUTH_CHANNELS: readonly AuthChannel[] = ['wallet_push', 'wallet_qr'];

/** What the endpoints need besides the request. @internal */
export interface ServiceContext {
  state: SandboxState;
  now: () => Date;
  clock: Clock;
  /** How long a dispatched prompt lives, ms. */
  promptTtlMs: number;
}

/** One endpoint: its method, and how it answers a request's body (already read). @internal */
export interface Endpoint {
  method: 'GET' | 'POST';
  run: (body: () => JsonObject) => SavedResponse;
}

/** POST /v1/charges/resolve-handle. */
function resolveHandle(ctx: ServiceContext, body: JsonObject): SavedResponse {
  const handle = requireString(body, 'handle');
  const amount = requireAmount(body, 'amount');
  const reference = requireString(body, 'reference');
  const customer = findCustomer(ctx.state.customers, handle);
  if (!customer) throw new SandboxError(404, `No customer with handle or phone '${handle}'.`);
  registerCharge(ctx.state, reference, amount, customer, ctx.now());
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

/** POST /v1/charges/dispatch. */
function dispatch(ctx: ServiceContext, body: JsonObject, pageBase: string): SavedResponse {
  const charge = promptCharge(ctx.state, {
    reference: requireString(body, 'reference'),
    bankId: requireString(body, 'bankId'),
    channel: requireOneOf(body, 'authChannel', AUTH_CHANNELS),
    description: optionalString(body, 'description'),
    metadata: optionalObject(body, 'metadata'),
    now: ctx.now(),
    ttlMs: ctx.promptTtlMs,
    pageBase,
  });
  const data: ChargeDispatch = {
    reference: charge.reference,
    status: charge.status,
    authChannel: charge.channel ?? 'wallet_push',
    ...(charge.qrCodeUrl === null ? {} : { qrCodeUrl: charge.qrCodeUrl }),
    expiresAt: charge.expiresAt ?? '',
  };
  const message = charge.channel === 'wallet_qr' ? 'QR code generated' : 'Authorization prompt sent';
  return success(data, message);
}

/**
 * The settlement of a paid charge: at once on the real clock; on the manual clock at
 * {@link settlementTime}, and `null` until the clock reaches it.
 */
function settlement(charge: SandboxCharge, clock: Clock): Settlement | null {
  if (charge.status !== 'SUCCESS' || charge.paidAt === null) return null;
  if (!clock.manual) return { status: 'SETTLED', settledAt: charge.paidAt };
  const settledAt = settlementTime(charge.paidAt);
  return Date.parse(settledAt) <= clock.now().getTime() ? { status: 'SETTLED', settledAt } : null;
}

/** The verify response's data for a charge. @internal */
export function toTransaction(charge: SandboxCharge, clock: Clock): Transaction {
  const { fee, netAmount, paidAt } = charge;
  const paid = charge.status === 'SUCCESS' && fee !== null && netAmount !== null && paidAt !== null;
  const status =
    charge.status === 'PENDING_SCAN' || charge.status === 'RESOLVED'
      ? 'PENDING_AUTHORIZATION'
      : charge.status === 'EXPIRED'
        ? 'FAILED'
        : charge.status;
  const common = { reference: charge.reference, amount: charge.amount, currency: charge.currency };
  const channel = charge.channel ?? 'wallet_push';
  const customer = { ...charge.customer };
  // A paid charge has its fee, net amount and time of payment: the SDK's types promise them.
  if (paid) {
    const settled = settlement(charge, clock);
    return { ...common, fee, netAmount, status: 'SUCCESS', channel, customer, settlement: settled, paidAt };
  }
  if (status === 'SUCCESS') throw new Error(`sandbox charge ${charge.reference} is SUCCESS without its fee`);
  return { ...common, fee, netAmount, status, channel, customer, settlement: null, paidAt };
}

/** GET /v1/charges/verify/{reference}. The verify shape has no `message`. */
function verify(ctx: ServiceContext, reference: string): SavedResponse {
  const charge = findCharge(ctx.state, reference, ctx.now());
  if (charge.status === 'RESOLVED') {
    throw new SandboxError(
      404,
      `Charge '${reference}' was resolved but never dispatched; there is nothing to verify.`,
    );
  }
  return success(toTransaction(charge, ctx.clock));
}

/** POST /v1/refunds. */
function refund(ctx: ServiceContext, body: JsonObject): SavedResponse {
  const made = refundCharge(
    ctx.state,
    {
      reference: requireString(body, 'reference'),
      amount: optionalAmount(body, 'amount'),
      reason: optionalString(body, 'reason'),
    },
    ctx.now(),
  );
  const { refundReference, amount, currency, status, refundedAt } = made;
  return success({ refundReference, amount, currency, status, refundedAt }, 'Refund processed');
}

/** Percent-decodes one path segment, refusing malformed encoding with a 400. @internal */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new SandboxError(400, 'The reference in the path is not valid percent-encoding.');
  }
}

/** The endpoint at a path (relative to the base path), or a 404. @internal */
export function endpointAt(ctx: ServiceContext, path: string, pageBase: string): Endpoint {
  switch (path) {
    case '/v1/charges/resolve-handle':
      return { method: 'POST', run: (body) => resolveHandle(ctx, body()) };
    case '/v1/charges/dispatch':
      return { method: 'POST', run: (body) => dispatch(ctx, body(), pageBase) };
    case '/v1/refunds':
      return { method: 'POST', run: (body) => refund(ctx, body()) };
  }
  const match = /^\/v1\/charges\/verify\/([^/]+)$/.exec(path);
  if (match?.[1] !== undefined) {
    const reference = decodeSegment(match[1]);
    return { method: 'GET', run: () => verify(ctx, reference) };
  }
  throw new SandboxError(404, `No endpoint at ${path}.`);
}
