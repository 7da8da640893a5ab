/**
 * A person approves money over MCP: when the client declares elicitation, a money tool's preview
 * is shown to its user (`elicitation/create`) and the call acts only on their "yes", with the
 * preview's token; anything else (no, cancel, a client that fails to ask) sends nothing.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WalletTool } from '../tools/shapes.js';
import { refused, type ToolResult } from '../answers/report.js';
import { dataLine } from '../answers/words.js';

const SCHEMA = {
  type: 'object' as const,
  properties: {
    approve: {
      type: 'boolean' as const,
      title: 'Approve',
      description: 'Yes to send exactly what is shown above; no to send nothing.',
    },
  },
  required: ['approve'],
};

/** Previews `args`, asks the client's user, and acts on an approval only. @internal */
export async function askPerson(
  mcp: McpServer,
  tool: WalletTool,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const preview = await tool.execute(args);
  const token = preview.data?.['confirmationToken'];
  // A refusal (a limit, a bad input) or anything but a preview is the answer itself.
  if (preview.isError || typeof token !== 'string') return preview;
  let approved = false;
  let said = 'no answer';
  try {
    const answer = await mcp.server.elicitInput({
      mode: 'form',
      message: `Approve this payment action?\n${preview.text.split('\nAsk the user')[0] ?? ''}`,
      requestedSchema: SCHEMA,
    });
    approved = answer.action === 'accept' && answer.content?.['approve'] === true;
    said = answer.action;
  } catch (error) {
    said = error instanceof Error ? error.message : String(error);
  }
  if (!approved) {
    return refused(
      `The user did not approve ${tool.name}, so nothing was sent. Do not retry it unless the user asks again.\n${dataLine('Their answer', said)}`,
      { refusedBy: 'user', answer: said },
    );
  }
  return tool.execute({ ...args, confirmationToken: token });
}
