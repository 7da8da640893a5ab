/**
 * Restarts keep the day: `wallet-mcp` started, used and stopped three times on one SQLite file,
 * and tool sets built per request on the default ledger, never pass the daily limit. On a Node
 * without node:sqlite both refuse (ledger_required) rather than start the day at zero.
 */
// Each Node line registers the branch that applies to it (CI runs 20, 22, 24 and 26), so npm test
// reports nothing skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';
import { createSandbox, type Sandbox, type SandboxServer } from '@wallet/node/testing';

import { walletTools } from '../../packages/agent-toolkit/src/index.js';
import { HAS_SQLITE, ledgerFile, mcpRefusal, startMcp } from './processes.js';
import { TEST_KEY } from './setup.js';

let sandbox: Sandbox;
let server: SandboxServer;
let direct: Wallet;
beforeAll(async () => {
  sandbox = createSandbox();
  server = await sandbox.listen();
  direct = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
});
afterAll(() => server.close());

async function paid(reference: string, amount: number): Promise<void> {
  const resolved = await direct.charges.resolveHandle({ handle: '@ada', amount, reference });
  await direct.charges.dispatch({
    reference,
    bankId: resolved.linkedBanks[0]!.bankId,
    authChannel: 'wallet_push',
  });
  await sandbox.authorize(reference);
}
const refunded = (prefix: string) =>
  sandbox.refunds.filter((x) => x.reference.startsWith(prefix)).reduce((s, x) => s + x.amount, 0);

if (HAS_SQLITE)
  describe(`restarts on the SQLite ledger (${process.version})`, () => {
    it('wallet-mcp started three times in a day on one file refunds at most the daily limit', async () => {
      const env = {
        WALLET_SECRET_KEY: TEST_KEY,
        WALLET_BASE_URL: server.url,
        WALLET_MCP_ALLOW: 'refund_charge',
        WALLET_MCP_CONFIRM: 'none',
        WALLET_MCP_LIMIT_DAILY_REFUNDS: '100000',
        WALLET_MCP_LEDGER: `sqlite:${ledgerFile()}`,
      };
      const answers: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        await paid(`rs${i}`, 40_000);
        const mcp = await startMcp(env);
        answers.push((await mcp.call('refund_charge', { reference: `rs${i}` })).isError);
        await mcp.close();
      }
      expect(answers).toEqual([false, false, true]);
      expect(refunded('rs')).toBe(80_000);
    });

    it('tool sets built per request on the default ledger share the day', async () => {
      const old = process.env['XDG_STATE_HOME'];
      process.env['XDG_STATE_HOME'] = ledgerFile().replace(/spend-ledger\.sqlite$/, '');
      try {
        const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: server.url, maxRetries: 0 });
        const results: boolean[] = [];
        for (let i = 0; i < 3; i++) {
          await paid(`rq${i}`, 40_000);
          const tools = walletTools({
            wallet,
            allow: ['refund_charge'],
            confirm: false,
            limits: { dailyRefunds: 100_000 },
          });
          results.push(
            (await tools.find((t) => t.name === 'refund_charge')!.execute({ reference: `rq${i}` })).isError,
          );
        }
        expect(results).toEqual([false, false, true]);
        expect(refunded('rq')).toBe(80_000);
      } finally {
        if (old === undefined) delete process.env['XDG_STATE_HOME'];
        else process.env['XDG_STATE_HOME'] = old;
      }
    });
  });

if (!HAS_SQLITE)
  describe(`restarts without node:sqlite (${process.version})`, () => {
    it('wallet-mcp refuses to start on the default ledger rather than forget the day', async () => {
      const refused = await mcpRefusal({ WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: server.url });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('no node:sqlite');
    });
  });
