/** The tools that move no money; get_charge and wait_for_charge also settle journaled dispatches (FAILED gives back). */
import { WaitTimeoutError, type Transaction } from '@wallet/node';
import type { ToolContext } from './options.js';
import { CUT_OFF_MS, countedRefunds, type JournalEntry } from '../spending/ledger.js';
import { ok, resolvedResult, transactionData, transactionText, type ToolResult } from '../answers/report.js';
import { MAX_WAIT_SECONDS } from './shapes.js';
import { amountText, money } from '../answers/words.js';

/** resolve_customer. @internal */
export async function resolveCustomer(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const params = args as { handle: string; amount: number; reference: string };
  const resolved = await ctx.wallet.charges.resolveHandle(params);
  return resolvedResult(resolved, params.amount, params.reference, ctx.allow.has('dispatch_charge'));
}

// A journal on a shared ledger may hold refunds of another agent: advise only tools this one has.
function stateWords(ctx: ToolContext, state: string): string {
  if (state === 'sent') return 'sent, no answer journaled yet (outcome unknown)';
  if (state === 'done') return 'accepted by the service';
  if (state !== 'unknown') return state;
  return ctx.allow.has('refund_charge')
    ? 'OUTCOME UNKNOWN: repeat the same refund_charge call to learn it (it reuses the key)'
    : 'OUTCOME UNKNOWN: this agent cannot refund; the agent or person who sent it must repeat it to learn it';
}

// Dispatches answered before the service is asked: only these can its answer settle (one in flight may re-prompt).
async function answeredDispatches(ctx: ToolContext, reference: string): Promise<JournalEntry[]> {
  try {
    const journal = await ctx.ledger.journal(reference);
    return journal.filter(
      (entry) => entry.tool === 'dispatch_charge' && (entry.state === 'done' || entry.state === 'unknown'),
    );
  } catch {
    return []; // nothing settled: the amounts stay counted
  }
}

// The charge with its journaled refunds; a final status settles the dispatches `answered` before.
async function withJournal(
  ctx: ToolContext,
  reference: string,
  tx: Transaction,
  answered: readonly JournalEntry[],
  lead = '',
): Promise<ToolResult> {
  let journal: JournalEntry[];
  try {
    journal = await ctx.ledger.journal(reference);
  } catch {
    const text = `${lead ? `${lead}\n` : ''}${transactionText(tx)}\nThe spend ledger did not answer: the refunds this toolkit journaled for it are unknown right now.`;
    return ok(text, transactionData(tx));
  }
  // A ledger failing here must not hide the outcome: the amount stays counted, settled by a later read.
  const settle = (key: string, state: 'failed' | 'done'): Promise<void> =>
    ctx.ledger.finish(key, state).catch(() => undefined);
  for (const entry of answered) {
    if (tx.status === 'FAILED') {
      // A prompt in doubt may still be on its way and re-prompt after an earlier one failed: past the cut-off it cannot.
      if (entry.state === 'done' || entry.at <= ctx.now() - CUT_OFF_MS) await settle(entry.key, 'failed');
    } else if (tx.status === 'SUCCESS' && entry.state === 'unknown') await settle(entry.key, 'done');
  }
  const { refunds, counted } = countedRefunds(journal);
  const lines = refunds.map(
    (entry) => `- ${amountText(entry.amount)}, ${stateWords(ctx, entry.state)}, key '${entry.key}'`,
  );
  const text = [
    lead,
    transactionText(tx),
    refunds.length === 0
      ? 'Refunds this toolkit journaled for it: none.'
      : `Refunds this toolkit journaled for it, ${amountText(counted)} in all:\n${lines.join('\n')}`,
  ]
    .filter((line) => line !== '')
    .join('\n');
  return ok(text, {
    ...transactionData(tx),
    refunds: refunds.map((entry) => ({
      amount: money(entry.amount),
      state: entry.state,
      idempotencyKey: entry.key,
      at: new Date(entry.at).toISOString(),
    })),
    refunded: money(counted),
  });
}

/** get_charge. @internal */
export async function getCharge(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const reference = args['reference'] as string;
  const answered = await answeredDispatches(ctx, reference);
  return withJournal(ctx, reference, await ctx.wallet.charges.verify(reference), answered);
}

/** wait_for_charge: answers within {@link MAX_WAIT_SECONDS}, inside an MCP client's request timeout. @internal */
export async function waitForCharge(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const seconds = Math.min(Number(args['timeoutSeconds'] ?? MAX_WAIT_SECONDS), MAX_WAIT_SECONDS);
  const reference = args['reference'] as string;
  const answered = await answeredDispatches(ctx, reference);
  try {
    const tx = await ctx.wallet.charges.waitForOutcome(reference, { timeout: seconds * 1000 });
    return await withJournal(ctx, reference, tx, answered);
  } catch (error) {
    // Still pending is an answer, not a failure: the customer may yet approve.
    if (!(error instanceof WaitTimeoutError)) throw error;
    const last = error.transaction;
    const text = `Still pending after ${seconds} s: the customer has not approved yet. Call wait_for_charge again later, or tell the user it awaits approval.`;
    if (last === undefined) return ok(text, { stillPending: true });
    const result = await withJournal(ctx, reference, last, answered, text);
    return { ...result, data: { stillPending: true, ...result.data } };
  }
}
