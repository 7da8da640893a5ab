/** The service's four endpoints, synchronous so an idempotent replay around them is exact. */
import type { AuthChannel, ChargeDispatch, ResolvedCustomer, Settlement, Transaction } from '../../types.js';
import { findCharge, newCharge, promptCharge, refundCharge, registerCharge } from '../state/charges.js';
import { settlementTime, type Clock } from '../state/clock.js';
import { findCustomer, linkedBanks } from '../state/customers.js';
import { SandboxError, type SandboxCharge } from '../state/records.js';
import { isWaiting, type SandboxState } from '../state/store.js';
import { amount, optionalObject, optionalString, requireString, success } from './wire.js';
import type { JsonObject, SavedResponse } from './wire.js';

const AUTH_CHANNELS: readonly AuthChannel[] = ['wallet_push', 'wallet_qr'];
const VERIFY = /^\/v1\/charges\/verify\/([^/]+)$/;

/** What the endpoints need besides the request; `promptTtlMs` is how long a prompt lives. @internal */
export type ServiceContext = { state: SandboxState; clock: Clock; promptTtlMs: number };

/** One endpoint: its method, its answer to a body (already read), a verify's reference. @internal */
export interface Endpoint {
  method: 'GET' | 'POST';
  run: (body: () => JsonObject) => SavedResponse;
  reference?: string;
}

function resolveHandle(ctx: ServiceContext, body: JsonObject): SavedResponse {
  const handle = requireString(body, 'handle');
  const amountKobo = amount(body, 'amount', true)!;
  const reference = requireString(body, 'reference');
  const customer = findCustomer(ctx.state.customers, handle);
  if (!customer) throw new SandboxError(404, `No customer with handle or phone '${handle}'.`);
  const now = ctx.clock.now();
  registerCharge(ctx.state, newCharge(reference, amountKobo, customer, now), now);
  const data: ResolvedCustomer = {
    customer: { handle: customer.handle, name: customer.name, avatarUrl: customer.avatarUrl },
    availableAuthChannels: [
      { id: 'wallet_push', name: 'Wallet push notification', isRecommended: true },
      { id: 'wallet_qr', name: 'Wallet QR code' },
    ],
    linkedBanks: linkedBanks(customer),
  };
  return success(data, 'Customer resolved');
}

function dispatch(ctx: ServiceContext, body: JsonObject, pageBase: string): SavedResponse {
  const charge = promptCharge(ctx.state, {
    reference: requireString(body, 'reference'),
    bankId: requireString(body, 'bankId'),
    channel: requireString(body, 'authChannel', AUTH_CHANNELS) as AuthChannel,
    description: optionalString(body, 'description'),
    metadata: optionalObject(body, 'metadata'),
    now: ctx.clock.now(),
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
  return success(data, charge.channel === 'wallet_qr' ? 'QR code generated' : 'Authorization prompt sent');
}

/** A paid charge settles at once on the real clock; on the manual one at {@link settlementTime}. */
function settlement(paidAt: string, clock: Clock): Settlement | null {
  if (!clock.manual) return { status: 'SETTLED', settledAt: paidAt };
  const settledAt = settlementTime(paidAt);
  return Date.parse(settledAt) <= clock.now().getTime() ? { status: 'SETTLED', settledAt } : null;
}

/** The verify response's data, with the spec's three statuses. */
function toTransaction(charge: SandboxCharge, clock: Clock): Transaction {
  const { reference, amount, currency, fee, netAmount, paidAt } = charge;
  const status = charge.status === 'EXPIRED' ? 'FAILED' : charge.status;
  const shown = status === 'SUCCESS' || status === 'FAILED' ? status : 'PENDING_AUTHORIZATION';
  // Authorize and seed set a SUCCESS charge's fee, net amount and paidAt together.
  const settled = shown === 'SUCCESS' ? settlement(paidAt!, clock) : null;
  const rest = {
    channel: charge.channel ?? 'wallet_push',
    customer: { ...charge.customer },
    settlement: settled,
  };
  return { reference, amount, currency, fee, netAmount, status: shown, ...rest, paidAt } as Transaction;
}

function verify(ctx: ServiceContext, reference: string): SavedResponse {
  const charge = findCharge(ctx.state, reference, ctx.clock.now());
  if (charge.status === 'RESOLVED')
    throw new SandboxError(
      404,
      `Charge '${reference}' was resolved but never dispatched; there is nothing to verify.`,
    );
  return success(toTransaction(charge, ctx.clock));
}

function refund(ctx: ServiceContext, body: JsonObject): SavedResponse {
  const request = {
    reference: requireString(body, 'reference'),
    amount: amount(body, 'amount', false),
    reason: optionalString(body, 'reason'),
  };
  const refund = refundCharge(ctx.state, request, ctx.clock.now());
  const { refundReference, amount: refunded, currency, status, refundedAt } = refund;
  return success({ refundReference, amount: refunded, currency, status, refundedAt }, 'Refund processed');
}

/** Percent-decodes one path segment, refusing malformed encoding with a 400. @internal */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new SandboxError(400, 'The reference in the path is not valid percent-encoding.');
  }
}

/** The endpoint at a path, or the 400 of a bad segment (answered after the key and allow list checks). @internal */
export function endpointAt(
  ctx: ServiceContext,
  path: string,
  pageBase: string,
): Endpoint | SandboxError | undefined {
  switch (path) {
    case '/v1/charges/resolve-handle':
      return { method: 'POST', run: (body) => resolveHandle(ctx, body()) };
    case '/v1/charges/dispatch':
      return { method: 'POST', run: (body) => dispatch(ctx, body(), pageBase) };
    case '/v1/refunds':
      return { method: 'POST', run: (body) => refund(ctx, body()) };
  }
  const raw = VERIFY.exec(path)?.[1];
  if (raw === undefined) return undefined;
  try {
    const reference = decodeSegment(raw);
    return { method: 'GET', run: () => verify(ctx, reference), reference };
  } catch (error) {
    return error as SandboxError;
  }
}

/** The longest hold, whatever the preference asks: below the SDK's default attempt timeout. */
const MAX_HOLD_S = 25;

/** On the manual clock, holds a `Prefer: wait=N` verify of a waiting charge until it changes or N s pass. @internal */
export async function holdPoll(ctx: ServiceContext, request: Request, reference?: string): Promise<void> {
  const { clock } = ctx;
  if (!clock.manual || request.method !== 'GET' || reference === undefined) return;
  const wait = /(?:^|[,;\s])wait=(\d{1,6})(?:$|[,;\s])/i.exec(request.headers.get('prefer') ?? '')?.[1];
  if (!Number(wait)) return; // none asked, or wait=0: no hold, so no timer a fake clock must pass
  // One setTimeout for the whole hold: under vitest's fake timers it ends on the test's time.
  const over = new AbortController();
  const timer = setTimeout(() => over.abort(), Math.min(Number(wait), MAX_HOLD_S) * 1000);
  const signal = AbortSignal.any([request.signal, over.signal]);
  for (;;) {
    const charge = ctx.state.charges.get(reference);
    if (charge === undefined || !isWaiting(charge, clock.now())) break;
    if (!(await clock.nextChange(signal))) break;
  }
  clearTimeout(timer);
}
