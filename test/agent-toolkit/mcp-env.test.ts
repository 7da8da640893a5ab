/**
 * `wallet-mcp` reads its environment failing closed: a variable a merchant meant for it, in any
 * letter case, is known or refused, and a value that names nothing never turns a guard off.
 */
import { describe, expect, it } from 'vitest';

import { readMcpEnv } from '../../packages/agent-toolkit/src/hosts/mcp-env.js';

describe('readMcpEnv', () => {
  it('refuses a variable in the wrong letter case rather than run without the limit it meant', () => {
    const env = readMcpEnv({ wallet_mcp_limit_daily_refunds: '500000' });
    expect(env).toEqual({
      ok: false,
      problems: [
        'wallet_mcp_limit_daily_refunds is not a wallet-mcp variable: did you mean WALLET_MCP_LIMIT_DAILY_REFUNDS?',
      ],
    });
  });

  it('refuses a WALLET_MCP_CONFIRM that names no tool, rather than turn confirmation off', () => {
    const env = readMcpEnv({ WALLET_MCP_CONFIRM: ' , ' });
    expect(env.ok).toBe(false);
    expect(env.ok ? [] : env.problems).toEqual([
      "WALLET_MCP_CONFIRM names no tool: list dispatch_charge and/or refund_charge, or write 'none'.",
    ]);
    expect(readMcpEnv({ WALLET_MCP_CONFIRM: 'none' })).toMatchObject({
      ok: true,
      confirm: { dispatch_charge: false, refund_charge: false },
    });
  });
});
