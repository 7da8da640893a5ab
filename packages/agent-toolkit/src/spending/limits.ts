/** Spending limits in Kobo, and the refusals an agent can act on: which limit, how much is left. */
import type { SpendKind } from './ledger.js';
import { refused, type ToolResult } from '../answers/report.js';
import { amountText, money } from '../answers/words.js';

/** Hard limits on the money the tools can move, all in Kobo (100 Kobo = ₦1). None by default. */
export interface SpendLimits {
  /** Largest single charge. */
  perCharge?: number;
  /** Largest single refund. */
  perRefund?: number;
  /** Most charged per day in total (the ledger's day, in the merchant's time zone). */
  dailyCharges?: number;
  /** Most refunded per day in total. */
  dailyRefunds?: number;
}

/** Which limit refused a call, with what was asked and what is left. */
export interface LimitRefusal {
  limit: keyof SpendLimits;
  /** The limit, Kobo. */
  max: number;
  /** What the call asked for, Kobo. */
  requested: number;
  /** What could still pass that limit now, Kobo. */
  left: number;
}

const NAMES: Record<SpendKind, { per: keyof SpendLimits; daily: keyof SpendLimits; one: string }> = {
  charges: { per: 'perCharge', daily: 'dailyCharges', one: 'charge' },
  refunds: { per: 'perRefund', daily: 'dailyRefunds', one: 'refund' },
};

/** The daily limit of `kind`, Kobo (none: no limit). @internal */
export function dailyLimit(limits: SpendLimits, kind: SpendKind): number | undefined {
  return limits[NAMES[kind].daily];
}

/** A refusal when `total` (today's for the daily limit, none for one call) plus `amount` passes the limit. @internal */
export function overLimit(
  limits: SpendLimits,
  kind: SpendKind,
  which: 'per' | 'daily',
  amount: number,
  total = 0,
): LimitRefusal | undefined {
  const max = limits[NAMES[kind][which]];
  return max !== undefined && total + amount > max
    ? refusalBy(limits, kind, which, amount, total)
    : undefined;
}

/** The refusal by `which` limit; a ledger's `over` is one even where these limits would pass (a shared cap). @internal */
export function refusalBy(
  limits: SpendLimits,
  kind: SpendKind,
  which: 'per' | 'daily',
  amount: number,
  total: number,
): LimitRefusal {
  const limit = NAMES[kind][which];
  const max = limits[limit] ?? 0;
  // An `over` these limits do not explain (a shared cap) leaves nothing this process can promise.
  const left = total + amount > max ? Math.max(0, max - total) : 0;
  return { limit, max, requested: amount, left };
}

/** A refusal as a tool result: which limit, what was asked, what is left, what to do. @internal */
export function limitRefused(refusal: LimitRefusal, kind: SpendKind): ToolResult {
  const one = NAMES[kind].one;
  const daily = refusal.limit === NAMES[kind].daily;
  const what = daily
    ? `the daily ${kind} limit of ${amountText(refusal.max)}: ${amountText(refusal.left)} is left today`
    : `the per-${one} limit of ${amountText(refusal.max)}`;
  const advice = daily
    ? refusal.left > 0
      ? `A ${one} of at most ${refusal.left} Kobo could pass today; otherwise tell the user the daily limit is reached and a person must do it.`
      : `Nothing more can pass today: tell the user the daily limit is reached and a person must do it.`
    : `Do not split it into smaller ${kind} to get around the limit: tell the user a person must do this one.`;
  return refused(
    `Refused by limit '${refusal.limit}': nothing was sent. ${amountText(refusal.requested)} would pass ${what}. ${advice}`,
    {
      refusedBy: refusal.limit,
      limit: money(refusal.max),
      requested: money(refusal.requested),
      left: money(refusal.left),
    },
  );
}
