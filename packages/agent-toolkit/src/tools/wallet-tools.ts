/**
 * `walletTools()`: the SDK's calls as five tools for an AI agent, safe with money by construction:
 * read-only unless allowed, hard limits in Kobo, confirmation bound to the exact arguments, live
 * keys only on request.
 */
import { ValidationError } from '@wallet/node';
import { createConfirmer } from '../spending/confirm.js';
import type { ToolContext, WalletTool } from './context.js';
import { ANNOTATIONS, DESCRIPTIONS } from './descriptions.js';
import { sqliteSpendLedger } from '../spending/sqlite-ledger.js';
import { dispatchCharge, refundCharge } from './money-tools.js';
import { checkToolsOptions, type WalletToolsOptions } from './options.js';
import { getCharge, resolveCustomer, waitForCharge } from './read-tools.js';
import { refused, type ToolResult } from '../answers/report.js';
import { parseInput, toolInput, type MoneyToolName, type ToolName } from './shapes.js';
import { errorResult } from '../answers/words.js';

type Run = (ctx: ToolContext, args: Record<string, unknown>) => Promise<ToolResult>;

const RUN: Record<ToolName, Run> = {
  resolve_customer: resolveCustomer,
  dispatch_charge: dispatchCharge,
  get_charge: getCharge,
  wait_for_charge: waitForCharge,
  refund_charge: refundCharge,
};

const DOING: Record<ToolName, string> = {
  resolve_customer: 'looking up the customer',
  dispatch_charge: 'checking the charge before sending it',
  get_charge: 'getting the charge',
  wait_for_charge: 'waiting for the charge',
  refund_charge: 'checking the refund before sending it',
};

const LIVE_REFUSED =
  'This agent toolkit was given a live key (sk_live_: real money) without allowLive: true. Use an sk_test_ key, or pass allowLive: true once limits and confirmation are set.';

function isLive(ctx: Pick<ToolContext, 'wallet'>): boolean {
  // Anything but a test key counts as live: a mode that cannot be read is not assumed harmless.
  return ctx.wallet.mode !== 'test';
}

function makeTool(ctx: ToolContext, name: ToolName): WalletTool {
  const confirm = name === 'dispatch_charge' || name === 'refund_charge' ? ctx.confirm[name] : false;
  const input = toolInput(name, confirm);
  return {
    name,
    description: DESCRIPTIONS[name],
    inputSchema: input.jsonSchema,
    annotations: { ...ANNOTATIONS[name] },
    async execute(raw) {
      try {
        if (isLive(ctx) && !ctx.allowLive)
          return refused(`Refused: nothing was sent. ${LIVE_REFUSED}`, { refusedBy: 'live_key' });
        const parsed = parseInput(input, raw);
        if (!parsed.ok) {
          const problems = parsed.issues
            .map((issue) => `${issue.path || 'input'} ${issue.message}`)
            .join('; ');
          return refused(`Invalid input, nothing was sent: ${problems}. Fix these and call again.`, {
            issues: parsed.issues,
          });
        }
        return await RUN[name](ctx, parsed.value);
      } catch (error) {
        // Errors here come before a money call is sent (the money flow answers its own), or from a
        // call that moves no money.
        const { text, error: data } = errorResult(error, DOING[name]);
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
 * @throws {@link ValidationError} for a wrong option, or a live key without `allowLive: true`;
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
  checkToolsOptions(options);
  const now = options.now ?? Date.now;
  const wallet = options.wallet;
  const allowLive = options.allowLive ?? false;
  if (isLive({ wallet }) && !allowLive) {
    throw new ValidationError('walletTools options', [
      { path: 'allowLive', message: `is not set. ${LIVE_REFUSED}` },
    ]);
  }
  const given = options.confirm;
  const confirmFor = (tool: MoneyToolName, byDefault: boolean): boolean =>
    typeof given === 'boolean' ? given : (given?.[tool] ?? byDefault);
  const ctx: ToolContext = {
    wallet,
    limits: { ...options.limits },
    ledger: options.ledger ?? sqliteSpendLedger({ now }),
    confirmer: createConfirmer({
      now,
      ...(options.confirmSecret === undefined ? {} : { secret: options.confirmSecret }),
      ...(options.confirmTtl === undefined ? {} : { ttlMs: options.confirmTtl }),
    }),
    allowLive,
    confirm: {
      dispatch_charge: confirmFor('dispatch_charge', isLive({ wallet })),
      refund_charge: confirmFor('refund_charge', true),
    },
    allow: new Set(options.allow ?? []),
    now,
  };
  const allow: ReadonlySet<ToolName> = ctx.allow;
  const names: ToolName[] = [
    'resolve_customer',
    'get_charge',
    'wait_for_charge',
    'dispatch_charge',
    'refund_charge',
  ];
  return names
    .filter((name) => ANNOTATIONS[name].readOnlyHint || allow.has(name))
    .map((name) => makeTool(ctx, name));
}
