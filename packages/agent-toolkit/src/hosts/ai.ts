/**
 * `@wallet/agent-toolkit/ai`: the tools for the Vercel AI SDK (`ai`, an optional peer only this entry loads).
 *
 * @module \@wallet/agent-toolkit/ai
 */
import { jsonSchema, tool, type Tool } from 'ai';
import type { WalletTool } from '../tools/shapes.js';
import { readToolOptions, type WalletToolsOptions } from '../tools/options.js';
import type { ToolResult } from '../answers/report.js';
import { walletTools } from '../tools/wallet-tools.js';

/** The tools as an AI SDK tool set, keyed by name. */
export type WalletAiTools = Record<string, Tool<Record<string, unknown>, ToolResult>>;

/** Options of {@link walletAiTools}: those of `walletTools()`, and the person's step. */
export interface WalletAiToolsOptions extends WalletToolsOptions {
  /**
   * Whether money tools wait for the user's approval in the chat UI (AI SDK tool approval) before
   * they run, so planted text cannot move money. One approval acts once: the call's `toolCallId` is
   * spent in the ledger, and the same call run again is refused (`refusedBy: 'call_used'`), or
   * repeated under its key while its outcome is unknown.
   * @default true
   */
  needsApproval?: boolean;
}

/**
 * Turns tools from `walletTools()` into AI SDK tools. The toolkit checks input itself, so a wrong
 * call comes back to the model as a result it can fix, never an exception that ends the run.
 */
export function toAiTools(
  tools: readonly WalletTool[],
  options: { needsApproval?: boolean } = {},
): WalletAiTools {
  const aiTool = (walletTool: WalletTool): WalletAiTools[string] =>
    tool<Record<string, unknown>, ToolResult>({
      description: walletTool.description,
      // Money tools wait for a person unless the merchant turns it off; reading never does.
      needsApproval: !walletTool.annotations.readOnlyHint && options.needsApproval !== false,
      inputSchema: jsonSchema<Record<string, unknown>>(walletTool.inputSchema),
      // The AI SDK runs an approved call again when the same messages come again (a retried request).
      execute: (input, options) => walletTool.execute(input, options),
      // The model gets the text (which holds any confirmation token); `data` stays for the program.
      toModelOutput: ({ output }) => ({ type: output.isError ? 'error-text' : 'text', value: output.text }),
    });
  return Object.fromEntries(tools.map((walletTool) => [walletTool.name, aiTool(walletTool)]));
}

/**
 * {@link walletTools} for the Vercel AI SDK: pass the result as `tools` to `generateText` or
 * `streamText`. Money tools wait for the user's approval (`needsApproval: true`): answer the
 * `tool-approval-request` with a `tool-approval-response` (`addToolApprovalResponse` in `useChat`).
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs, type LanguageModel } from 'ai';
 * import { Wallet } from '@wallet/node';
 * import { walletAiTools } from '@wallet/agent-toolkit/ai';
 *
 * declare const model: LanguageModel;
 * const { text } = await generateText({
 *   model,
 *   tools: walletAiTools({ wallet: new Wallet(), allow: ['refund_charge'], limits: { dailyRefunds: 5_000_000 } }),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Has order_1042 been paid?',
 * });
 * ```
 */
export function walletAiTools(options: WalletAiToolsOptions): WalletAiTools {
  const { needsApproval, ...rest } = readToolOptions(
    options,
    {
      needsApproval: (value) => (typeof value === 'boolean' ? undefined : 'must be true or false'),
    },
    'walletAiTools',
  );
  return toAiTools(walletTools(rest), needsApproval === undefined ? {} : { needsApproval });
}
