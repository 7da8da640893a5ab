/** The one path of every money call: limits, preview or token check, one ledger step, send; amounts return only when nothing acted. */
import { createHash, randomUUID } from 'node:crypto';
import { IdempotencyError, ResponseValidationError, isWalletError } from '@wallet/node';
import type { ToolContext } from './options.js';
import { canonical, tokenProblemText, type TokenProblem } from '../spending/confirm.js';
import { CUT_OFF_MS, JOURNAL_MS, repeats, type JournalEntry, type SpendKind } from '../spending/ledger.js';
import { dailyLimit, limitRefused, overLimit, refusalBy } from '../spending/limits.js';
import { ok, refused, type ToolResult } from '../answers/report.js';
import type { MoneyToolName } from './shapes.js';
import { amountText, dataLine, errorResult, money } from '../answers/words.js';

/** One money-moving call, as a tool describes it to {@link runMoneyCall}. @internal */
export interface MoneyCall {
  tool: MoneyToolName;
  kind: SpendKind;
  /** The checked arguments, without `confirmationToken`: a repeat is the same tool with these. */
  args: Record<string, unknown>;
  /** Every argument that will be sent (a refund's computed amount included): the token binds these. */
  sent: Record<string, unknown>;
  reference: string;
  token: string | undefined;
  /** The host's id of this call (the AI SDK's toolCallId), which runs again when an approval is sent twice. */
  callId: string | undefined;
  /** The most this call can move, known before sending. */
  amount: number;
  /** A refund's charge paid this much: the ledger's step refuses refunds counted past it. */
  paid?: number;
  /** What the call would do, in the toolkit's words (no text from others). */
  summary: string;
  /** What others said that the person confirming should see (quoted as data). */
  context?: Record<string, unknown>;
  /** Sends it with `key`; `acted: false` when it stopped before moving anything. */
  send(key: string): Promise<{ result: ToolResult; acted: boolean }>;
}

/** The journal's identity of a call: the tool and the arguments the agent gave. @internal */
export function callOf(tool: MoneyToolName, args: Record<string, unknown>): string {
  return canonical({ tool, args });
}

// A preview that promises to repeat a call in doubt binds its token to that call's key too: once
// that call is settled, the token would send a new operation the person never approved.
const bound = (call: MoneyCall, prior: JournalEntry | undefined): Record<string, unknown> =>
  prior === undefined ? call.sent : { ...call.sent, repeatOf: prior.key };

// Why a token fails its check, or 'repeat' when its preview promised to repeat a call in doubt.
async function tokenProblem(
  ctx: ToolContext,
  call: MoneyCall,
  token: string,
): Promise<TokenProblem | 'repeat' | undefined> {
  const problem = ctx.confirmer.check(call.tool, call.sent, token);
  if (problem !== 'mismatch') return problem;
  const same = (await ctx.ledger.journal(call.reference)).filter(
    (entry) => entry.call === callOf(call.tool, call.args) && entry.key !== token,
  );
  for (const entry of same) {
    const signed = ctx.confirmer.check(call.tool, bound(call, entry), token);
    if (signed !== 'mismatch') return signed ?? 'repeat';
  }
  return 'mismatch';
}

async function preview(ctx: ToolContext, call: MoneyCall): Promise<ToolResult> {
  const journal = await ctx.ledger.journal(call.reference);
  const prior = journal.find((entry) => repeats(entry, callOf(call.tool, call.args), undefined, ctx.now()));
  if (prior === undefined) {
    const total = dailyLimit(ctx.limits, call.kind) === undefined ? 0 : await ctx.ledger.total(call.kind);
    const daily = overLimit(ctx.limits, call.kind, 'daily', call.amount, total);
    if (daily) return limitRefused(daily, call.kind);
  }
  const { token, expiresAt } = ctx.confirmer.issue(call.tool, bound(call, prior));
  const until = new Date(expiresAt).toISOString();
  const again = prior
    ? `It repeats an earlier call whose outcome is unknown: it will be sent with that call's idempotency key '${prior.key}', so the service answers for the first one and cannot act twice.`
    : '';
  const text = [
    `PREVIEW: nothing has been sent. This would ${call.summary}. ${again}`.trim(),
    dataLine('Every argument that will be sent', call.sent),
    ...(call.context === undefined ? [] : [dataLine('What the service reports', call.context)]),
    `Ask the user to confirm exactly this. Then call ${call.tool} again with the same arguments plus confirmationToken '${token}'.`,
    `The token works once, for these arguments only, until ${until}.`,
  ].join('\n');
  return ok(text, {
    preview: true,
    confirmationToken: token,
    expiresAt: until,
    tool: call.tool,
    arguments: call.sent,
    amount: money(call.amount),
  });
}

// A host's call id with its arguments, spent like a token: the same approved call run again acts once.
function onceOf(call: MoneyCall): { id: string; ttlMs: number } | undefined {
  if (call.token !== undefined || call.callId === undefined) return undefined;
  const hash = createHash('sha256').update(`${call.callId}\n${callOf(call.tool, call.args)}`);
  // Spent as long as the journal lasts: a call that repeated another in doubt journals nothing under
  // its own key, and run again after a shorter mark it would be sent as a new operation.
  return { id: `wai_${hash.digest('base64url').slice(0, 32)}`, ttlMs: JOURNAL_MS };
}

/** Runs a money call through every check, then sends it. Never throws. @internal */
export async function runMoneyCall(ctx: ToolContext, call: MoneyCall): Promise<ToolResult> {
  const perCall = overLimit(ctx.limits, call.kind, 'per', call.amount);
  if (perCall) return limitRefused(perCall, call.kind);
  const token = call.token;
  if (ctx.confirm[call.tool] && token === undefined) return preview(ctx, call);
  const checked = token === undefined ? undefined : await tokenProblem(ctx, call, token);
  if (checked !== undefined && checked !== 'repeat')
    return refused(tokenProblemText(checked, call.tool), { refusedBy: `token_${checked}` });
  const once = onceOf(call);
  const begun = await ctx.ledger.begin({
    // The token is the idempotency key: a model that sends the confirmed call twice moves money once.
    key: token ?? once?.id ?? `wak_${randomUUID()}`,
    tool: call.tool,
    reference: call.reference,
    kind: call.kind,
    amount: call.amount,
    call: callOf(call.tool, call.args),
    limit: dailyLimit(ctx.limits, call.kind),
    ...(call.paid === undefined ? {} : { paid: call.paid }),
    // A confirmation token, else the host's call id (onceOf gives none beside a token).
    ...(token !== undefined
      ? { token: { id: token, ttlMs: ctx.confirmer.ttlMs } }
      : once
        ? { token: once }
        : {}),
  });
  if (begun.state === 'token_used' && once !== undefined) return ranOnce(call.tool);
  if (begun.state === 'token_used')
    return refused(tokenProblemText('used', call.tool), { refusedBy: 'token_used' });
  if (begun.state === 'in_flight') return inFlight(call.tool, begun.entry);
  if (begun.state === 'over_paid') return overPaid(call.paid ?? 0, begun.counted);
  if (begun.state === 'over')
    return limitRefused(refusalBy(ctx.limits, call.kind, 'daily', call.amount, begun.total), call.kind);
  if (checked === 'repeat' && (begun.state === 'begun' || begun.entry.key === token)) {
    // What it promised to repeat was settled: it would be a new operation nobody approved. Nothing is
    // sent, nor when its own refused entry is found in flight (the same token at once, a failed give-back).
    await quietly(ctx.ledger.finish(begun.entry.key, 'failed'));
    return refused(tokenProblemText('repeated', call.tool), { refusedBy: 'token_repeated' });
  }
  return send(ctx, call, begun.entry, begun.state === 'repeat');
}

// The same host call run again after it acted (an approval sent twice): it was approved once.
function ranOnce(tool: MoneyToolName): ToolResult {
  return refused(
    `Refused: nothing was sent. This same ${tool} call (the same tool call, with the same arguments) was already run once, and one approval moves money once. Check the result with get_charge (it lists the refunds this toolkit journaled). Only if the user wants another, separate operation: make a new ${tool} call for the user to approve.`,
    { refusedBy: 'call_used' },
  );
}

/** A refund past what the charge paid, less the refunds journaled for it: nothing is sent. @internal */
export function overPaid(paid: number, counted: number): ToolResult {
  const left = Math.max(0, paid - counted);
  return refused(
    `Refused: nothing was sent. The charge was paid ${amountText(paid)} and the refunds this toolkit journaled for it (sent, or with their outcome unknown) come to ${amountText(counted)}, so at most ${amountText(left)} can be refunded. Check with get_charge and the user.`,
    { refusedBy: 'amount', left },
  );
}

// The same call sent at once twice (a model that retries before the answer, two hosts): a second
// key could act twice, and its own key at once may meet a service still working on the first.
// Journaled is not sent: a ledger step that landed after its caller gave up, a process stopped.
function inFlight(tool: MoneyToolName, entry: JournalEntry): ToolResult {
  const since = new Date(entry.at).toISOString();
  const after = new Date(entry.at + CUT_OFF_MS).toISOString();
  return refused(
    `Refused: nothing was sent. The same ${tool} call, with these arguments, was journaled at ${since} with idempotency key '${entry.key}' and has no answer yet: it may be on its way, or its process may have stopped before sending it or before its answer. Wait, then check with get_charge. If no answer comes, the same call again after ${after} sends it with that key, so the service cannot act twice.`,
    { refusedBy: 'in_flight', idempotencyKey: entry.key, amount: money(entry.amount) },
  );
}

// An answer that does not match its request, or no answer, leaves the service's act in doubt.
function inDoubtAfter(error: unknown, repeat: boolean): boolean {
  if (!isWalletError(error) || error.outcomeUnknown) return true;
  if (error instanceof IdempotencyError || error instanceof ResponseValidationError) return true;
  // A repeat's first try may have acted: only a verify (or a replayed answer) can say.
  return repeat;
}

// After the call, a failing ledger must not hide what happened: at worst an amount stays counted.
const quietly = (work: Promise<void>): Promise<void> => work.catch(() => undefined);

async function send(
  ctx: ToolContext,
  call: MoneyCall,
  entry: JournalEntry,
  repeat: boolean,
): Promise<ToolResult> {
  const key = entry.key;
  let sent: { result: ToolResult; acted: boolean };
  try {
    sent = await call.send(key);
  } catch (error) {
    const doubt = inDoubtAfter(error, repeat);
    await quietly(ctx.ledger.finish(key, doubt ? 'unknown' : 'failed'));
    if (doubt) {
      return refused(unknownText(ctx, call, entry, error), {
        error: { ...errorResult(error, 'sending').error, outcomeUnknown: true, idempotencyKey: key },
      });
    }
    const { text, error: data } = errorResult(error, `sending the ${call.kind.slice(0, -1)}`);
    // The token was spent with the operation: trying again takes a new one.
    const retry =
      call.token === undefined
        ? ''
        : `\nIts confirmationToken is used up: to try again, call ${call.tool} without confirmationToken for a new preview, and confirm with the user again.`;
    return refused(`${text}\n${amountText(entry.amount)} was given back to today's limit.${retry}`, {
      error: data,
    });
  }
  // A repeat that stopped before sending says nothing of its first try, which may have acted.
  await quietly(ctx.ledger.finish(key, sent.acted ? 'done' : repeat ? 'unknown' : 'failed'));
  if (!repeat) return sent.result;
  if (!sent.acted) {
    return {
      ...sent.result,
      text: `${sent.result.text}\nIt repeated an earlier call whose outcome is unknown (idempotency key '${key}'): that call may have acted, so ${amountText(entry.amount)} stays counted. Check with get_charge.`,
    };
  }
  return {
    ...sent.result,
    text: `${sent.result.text}\nThis repeated an earlier call with its idempotency key '${key}': the service answered for that one call, nothing moved twice.`,
  };
}

function unknownText(ctx: ToolContext, call: MoneyCall, entry: JournalEntry, error: unknown): string {
  const what = call.tool === 'refund_charge' ? 'refunded' : 'sent the payment prompt';
  const how = isWalletError(error) ? `${error.name}: ` : '';
  const repeat = ctx.confirm[call.tool]
    ? 'call it again with exactly the same arguments and the same confirmationToken (or, if it expired, take a new preview with the same arguments and confirm it)'
    : 'call it again with exactly the same arguments';
  const check =
    call.tool === 'refund_charge'
      ? 'get_charge lists the refunds this toolkit journaled for the charge, this one as outcome unknown.'
      : 'get_charge shows whether the charge was dispatched.';
  return [
    `OUTCOME UNKNOWN: the service may have ${what}. Its idempotency key '${entry.key}' is journaled, and ${amountText(entry.amount)} stays counted against today's ${call.kind} limit until the outcome is known.`,
    `To learn it, ${repeat}: the toolkit sends the journaled key again, so the service answers for the first call and cannot act twice. ${check} Never use a new reference for the same order.`,
    dataLine('What went wrong', `${how}${error instanceof Error ? error.message : String(error)}`),
  ].join('\n');
}
