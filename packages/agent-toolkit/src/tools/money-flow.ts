/**
 * The one path every money-moving call takes, in this order, all before anything is sent: the
 * per-call limit; without a token, a preview with a token bound to the arguments; with one, the
 * token's checks (bound, unexpired, unused); the daily limit, counted atomically in the ledger.
 * Then the call, with the token as its idempotency key; the amount is given back only when the
 * service is known not to have acted.
 */
import { isWalletError } from '@wallet/node';
import type { ToolContext } from './context.js';
import { tokenProblemText } from '../spending/confirm.js';
import type { Hold, SpendKind } from '../spending/ledger.js';
import { dailyRefusal, perCallRefusal, refusalText, reserve } from '../spending/limits.js';
import { ok, refused, type ToolResult } from '../answers/report.js';
import type { MoneyToolName } from './shapes.js';
import { amountText, errorResult, money } from '../answers/words.js';

/** One money-moving call, as a tool describes it to {@link runMoneyCall}. @internal */
export interface MoneyCall {
  tool: MoneyToolName;
  kind: SpendKind;
  /** The checked arguments, without `confirmationToken`: what a token is bound to. */
  args: Record<string, unknown>;
  token: string | undefined;
  /** The most this call can move, known before sending. */
  amount: number;
  /** What the call would do, for the preview ("refund ₦5,000.00 … of charge 'order_1'"). */
  summary: string;
  /** What the call is doing, for error messages. */
  doing: string;
  /** Sends it; resolves to the result and the amount that actually moved. */
  send(idempotencyKey: string | undefined): Promise<{ result: ToolResult; moved: number }>;
}

async function preview(ctx: ToolContext, call: MoneyCall): Promise<ToolResult> {
  const daily = await dailyRefusal(ctx.limits, ctx.ledger, call.kind, call.amount);
  if (daily) return refused(refusalText(daily, call.kind), { refusedBy: daily.limit, ...limitData(daily) });
  const { token, expiresAt } = ctx.confirmer.issue(call.tool, call.args);
  const until = new Date(expiresAt).toISOString();
  const text = [
    `PREVIEW: nothing has been sent. This would ${call.summary}.`,
    `Ask the user to confirm exactly this. Then call ${call.tool} again with the same arguments plus confirmationToken '${token}'.`,
    `The token works once, for these arguments only, until ${until}.`,
  ].join('\n');
  return ok(text, {
    preview: true,
    confirmationToken: token,
    expiresAt: until,
    tool: call.tool,
    arguments: call.args,
    amount: money(call.amount),
  });
}

function limitData(refusal: { max: number; requested: number; left: number }): Record<string, unknown> {
  return { limit: money(refusal.max), requested: money(refusal.requested), left: money(refusal.left) };
}

/** Runs a money call through every check, then sends it. Never throws. @internal */
export async function runMoneyCall(ctx: ToolContext, call: MoneyCall): Promise<ToolResult> {
  const perCall = perCallRefusal(ctx.limits, call.kind, call.amount);
  if (perCall)
    return refused(refusalText(perCall, call.kind), { refusedBy: perCall.limit, ...limitData(perCall) });
  const confirming = ctx.confirm[call.tool];
  if (confirming && call.token === undefined) return preview(ctx, call);
  let hold: Hold | undefined;
  const token = call.token;
  if (token !== undefined) {
    const problem = ctx.confirmer.check(call.tool, call.args, token);
    if (problem) return refused(tokenProblemText(problem, call.tool), { refusedBy: `token_${problem}` });
    const claim = await ctx.ledger.claim(token, ctx.confirmer.ttlMs);
    if (claim.state === 'used')
      return refused(tokenProblemText('used', call.tool), { refusedBy: 'token_used' });
    // A repeat after an unknown outcome: the amount is still counted from the first try.
    if (claim.state === 'retry') hold = claim.hold;
  }
  if (hold === undefined) {
    const reserved = await reserve(ctx.limits, ctx.ledger, call.kind, call.amount);
    if (!reserved.ok) {
      if (token !== undefined) await ctx.ledger.settle(token, null, ctx.confirmer.ttlMs);
      return refused(refusalText(reserved.refusal, call.kind), {
        refusedBy: reserved.refusal.limit,
        ...limitData(reserved.refusal),
      });
    }
    hold = { kind: call.kind, day: reserved.reservation.day, amount: call.amount };
  }
  return send(ctx, call, hold);
}

// After the call, a ledger that fails must not hide what happened to the money: the worst it can do
// is leave an amount counted that did not move, which errs on the safe side.
async function quietly(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch {
    // the amount stays counted
  }
}

async function send(ctx: ToolContext, call: MoneyCall, hold: Hold): Promise<ToolResult> {
  const token = call.token;
  const ttl = ctx.confirmer.ttlMs;
  let sent: { result: ToolResult; moved: number };
  try {
    sent = await call.send(token);
  } catch (error) {
    const unknown = !isWalletError(error) || error.outcomeUnknown;
    // Known not to have acted: the amount is given back. Unknown: it stays counted, and the same
    // token may repeat the call (same idempotency key, so the service cannot act twice).
    if (!unknown) await quietly(ctx.ledger.release(hold.kind, hold.day, hold.amount));
    if (token !== undefined) await quietly(ctx.ledger.settle(token, unknown ? hold : null, ttl));
    const { text, error: data } = errorResult(error, call.doing, true);
    const counted = unknown
      ? `\n${amountText(hold.amount)} stays counted against today's ${call.kind} limit until it is known.`
      : '';
    return refused(text + counted, { error: data });
  }
  if (sent.moved < hold.amount)
    await quietly(ctx.ledger.release(hold.kind, hold.day, hold.amount - sent.moved));
  if (token !== undefined) await quietly(ctx.ledger.settle(token, null, ttl));
  return sent.result;
}
