/**
 * A fleet of `wallet-mcp` processes on one ledger (a SQLite file, or a Redis), refunding at once:
 * 200 refunds of 10 000 to 19 950 Kobo, previewed then confirmed, spread over the processes, against
 * one daily limit. Answers what the sandbox refunded and what each process was told.
 */
import { Wallet } from '@wallet/node';

import { startMcp, type McpSession, type SandboxProcess } from './processes.js';
import { TEST_KEY } from './setup.js';

export const DAILY_REFUNDS = 2_000_000;
const CHARGES = 20;

export interface FleetRun {
  done: number;
  refused: string[];
  /** Kobo the sandbox refunded on this run's charges. */
  refunded: number;
  /** Kobo the processes were told they refunded. */
  told: number;
}

export async function runFleet(
  sandbox: SandboxProcess,
  ledgerEnv: Record<string, string>,
  processes: number,
  prefix: string,
): Promise<FleetRun> {
  const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.url });
  for (let i = 0; i < CHARGES; i++) {
    const reference = `${prefix}_${i}`;
    await wallet.charges.resolveHandle({ handle: '@tunde', amount: 1_000_000, reference });
    await wallet.charges.dispatch({ reference, bankId: 'bnk_tunde_zenith', authChannel: 'wallet_push' });
    await sandbox.authorize(reference);
  }
  await wallet.close();
  const env = {
    WALLET_SECRET_KEY: TEST_KEY,
    WALLET_BASE_URL: sandbox.url,
    WALLET_MCP_ALLOW: 'refund_charge',
    WALLET_MCP_LIMIT_DAILY_REFUNDS: String(DAILY_REFUNDS),
    ...ledgerEnv,
  };
  const fleet: McpSession[] = await Promise.all(Array.from({ length: processes }, () => startMcp(env)));
  try {
    // Each ask a call of its own (its own amount): the same call twice at once is refused while the
    // first is in flight (a model's retry, limits.test.ts), which is not what this fleet measures.
    const asks = Array.from({ length: 200 }, (_, i) => ({
      reference: `${prefix}_${i % CHARGES}`,
      amount: 10_000 + i * 50,
    }));
    const results = await Promise.all(
      asks.map(async (args, i) => {
        const mcp = fleet[i % processes]!;
        const preview = await mcp.call('refund_charge', args);
        if (preview.isError) return preview;
        return mcp.call('refund_charge', { ...args, confirmationToken: preview.data.confirmationToken });
      }),
    );
    const state = (await (await fetch(`${sandbox.url}/_sandbox/state`)).json()) as {
      data: { refunds: { reference: string; amount: number }[] };
    };
    const mine = state.data.refunds.filter((r) => r.reference.startsWith(`${prefix}_`));
    const done = results.filter((r) => !r.isError);
    return {
      done: done.length,
      refused: results.filter((r) => r.isError).map((r) => r.text),
      refunded: mine.reduce((sum, r) => sum + r.amount, 0),
      told: done.reduce((sum, r) => sum + (r.data.amount.kobo as number), 0),
    };
  } finally {
    await Promise.all(fleet.map((mcp) => mcp.close()));
  }
}
