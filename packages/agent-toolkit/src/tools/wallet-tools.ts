/** `walletTools()`: the SDK's calls as five tools for an AI agent, safe with money by construction. */
import { check } from '@wallet/node/schemas';
import { DESCRIPTIONS } from './descriptions.js';
import { dispatchCharge, refundCharge } from './money-tools.js';
import { toolContext, type ToolContext, type ToolRun, type WalletToolsOptions } from './options.js';
import { getCharge, resolveCustomer, waitForCharge } from './read-tools.js';
import { refused } from '../answers/report.js';
import { isMoneyTool, toJsonSchema, toolSchema, type ToolName, type WalletTool } from './shapes.js';
import { errorResult } from '../answers/words.js';

// Each tool's title, run, and what it was doing when an error came before anything was sent.
const TOOLS: Record<ToolName, { title: string; run: ToolRun; doing: string }> = {
  resolve_customer: { title: 'Look up a customer', run: resolveCustomer, doing: 'looking up the customer' },
  get_charge: { title: 'Get a charge', run: getCharge, doing: 'getting the charge' },
  wait_for_charge: { title: 'Wait for a charge', run: waitForCharge, doing: 'waiting for the charge' },
  dispatch_charge: {
    title: 'Charge a customer',
    run: dispatchCharge,
    doing: 'checking the charge before sending it',
  },
  refund_charge: {
    title: 'Refund a charge',
    run: refundCharge,
    doing: 'checking the refund before sending it',
  },
};

function makeTool(ctx: ToolContext, name: ToolName): WalletTool {
  const money = isMoneyTool(name);
  const schema = toolSchema(name, money && ctx.confirm[name]);
  const { title, run, doing } = TOOLS[name];
  return {
    name,
    description: DESCRIPTIONS[name],
    inputSchema: toJsonSchema(name, schema),
    // Money tools are destructive, the others read only (resolving moves nothing).
    annotations: {
      title,
      readOnlyHint: !money,
      destructiveHint: money,
      idempotentHint: !money,
      openWorldHint: true,
    },
    async execute(raw, host) {
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
        // An empty id (Gemini's OpenAI-compatible API gives every call one) names no call: spent, it
        // would refuse every later call with the same arguments as this one run again.
        const id = host?.toolCallId;
        const callId = typeof id === 'string' && id !== '' ? id : undefined;
        return await run(ctx, args, confirmationToken as string | undefined, callId);
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
  const names = Object.keys(TOOLS) as ToolName[];
  return names.filter((name) => !isMoneyTool(name) || ctx.allow.has(name)).map((name) => makeTool(ctx, name));
}
