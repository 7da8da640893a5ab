/** `walletTools()`: the SDK's calls as five tools for an AI agent, safe with money by construction. */
import { check } from '@wallet/node/schemas';
import { annotationsOf, DESCRIPTIONS } from './descriptions.js';
import { dispatchCharge, refundCharge } from './money-tools.js';
import { toolContext, type ToolContext, type ToolRun, type WalletToolsOptions } from './options.js';
import { getCharge, resolveCustomer, waitForCharge } from './read-tools.js';
import { refused } from '../answers/report.js';
import { isMoneyTool, toJsonSchema, toolSchema, type ToolName, type WalletTool } from './shapes.js';
import { errorResult } from '../answers/words.js';

// Each tool's run, and what it was doing when an error came before anything was sent.
const RUNS: Record<ToolName, [ToolRun, string]> = {
  resolve_customer: [resolveCustomer, 'looking up the customer'],
  get_charge: [getCharge, 'getting the charge'],
  wait_for_charge: [waitForCharge, 'waiting for the charge'],
  dispatch_charge: [dispatchCharge, 'checking the charge before sending it'],
  refund_charge: [refundCharge, 'checking the refund before sending it'],
};

function makeTool(ctx: ToolContext, name: ToolName): WalletTool {
  const schema = toolSchema(name, isMoneyTool(name) && ctx.confirm[name]);
  const [run, doing] = RUNS[name];
  return {
    name,
    description: DESCRIPTIONS[name],
    inputSchema: toJsonSchema(name, schema),
    annotations: annotationsOf(name),
    async execute(raw) {
      try {
        // The SDK's own rules and messages ("did you mean" for a misspelled key).
        const parsed = check(schema, raw ?? {});
        if (!parsed.ok) {
          const problems = parsed.issues
            .map((issue) => `${issue.path || 'input'} ${issue.message}`)
            .join('; ');
          return refused(`Invalid input, nothing was sent: ${problems}. Fix these and call again.`, {
            issues: parsed.issues,
          });
        }
        const { confirmationToken, ...args } = parsed.value as Record<string, unknown>;
        return await run(ctx, args, confirmationToken as string | undefined);
      } catch (error) {
        // A money call answers its own errors once sent: these come before, or from a read.
        const { text, error: data } = errorResult(error, doing);
        return refused(text, { error: data });
      }
    },
  };
}

/**
 * The Wallet tools for an AI agent: `resolve_customer`, `get_charge` and `wait_for_charge`, plus
 * `dispatch_charge` and `refund_charge` when `allow` names them. Each has a JSON Schema input from
 * the SDK's own schemas, MCP annotations, and an `execute` that never throws.
 *
 * @throws `ValidationError` for a wrong option, or a live key without `allowLive: true`;
 * `WalletError` `ledger_required` without a ledger on a Node that has no `node:sqlite`.
 * @example
 * ```ts
 * import { Wallet } from '@wallet/node';
 * import { walletTools } from '@wallet/agent-toolkit';
 *
 * const tools = walletTools({
 *   wallet: new Wallet(),
 *   allow: ['refund_charge'],
 *   limits: { perRefund: 2_000_000, dailyRefunds: 10_000_000 }, // ₦20,000 each, ₦100,000 a day
 * });
 * const refund = tools.find((tool) => tool.name === 'refund_charge')!;
 * const preview = await refund.execute({ reference: 'order_1042' });
 * ```
 */
export function walletTools(options: WalletToolsOptions): WalletTool[] {
  const ctx = toolContext(options);
  const names = Object.keys(RUNS) as ToolName[];
  return names.filter((name) => !isMoneyTool(name) || ctx.allow.has(name)).map((name) => makeTool(ctx, name));
}
