/** The tools that move no money: resolve_customer, get_charge, wait_for_charge. */
import { WaitTimeoutError } from '@wallet/node';
import type { ToolContext } from './context.js';
import { ok, resolvedResult, transactionData, transactionText, type ToolResult } from '../answers/report.js';
import { MAX_WAIT_SECONDS } from './shapes.js';

/** resolve_customer. @internal */
export async function resolveCustomer(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const params = {
    handle: args['handle'] as string,
    amount: args['amount'] as number,
    reference: args['reference'] as string,
  };
  const resolved = await ctx.wallet.charges.resolveHandle(params);
  const result = resolvedResult(resolved, params.amount, params.reference);
  return {
    ...result,
    text: `${result.text}\nTo charge, use dispatch_charge with the same handle, amount and reference.`,
  };
}

/** get_charge. @internal */
export async function getCharge(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const tx = await ctx.wallet.charges.verify(args['reference'] as string);
  return ok(transactionText(tx), transactionData(tx));
}

/** wait_for_charge. @internal */
export async function waitForCharge(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const seconds = Math.min((args['timeoutSeconds'] as number | undefined) ?? 60, MAX_WAIT_SECONDS);
  try {
    const tx = await ctx.wallet.charges.waitForOutcome(args['reference'] as string, {
      timeout: seconds * 1000,
    });
    return ok(transactionText(tx), transactionData(tx));
  } catch (error) {
    // Still pending is an answer, not a failure: the customer may yet approve.
    if (!(error instanceof WaitTimeoutError)) throw error;
    const last = error.transaction;
    const text = `Still pending after ${seconds} s: the customer has not approved yet. Call wait_for_charge again later, or tell the user it awaits approval.`;
    return ok(last ? `${text}\n${transactionText(last)}` : text, {
      stillPending: true,
      ...(last ? transactionData(last) : {}),
    });
  }
}
