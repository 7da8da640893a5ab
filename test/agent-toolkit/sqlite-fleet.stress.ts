/**
 * Two and four `wallet-mcp` processes on one SQLite ledger file (the default ledger, shared by every
 * process on a machine), refunding at once: never past the daily limit, and the file says exactly
 * what the sandbox refunded. On a Node without node:sqlite the server refuses to start instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sqliteSpendLedger } from '../../packages/agent-toolkit/src/index.js';
import { DAILY_REFUNDS, runFleet } from './fleet.js';
import { HAS_SQLITE, ledgerFile, mcpRefusal, startSandbox, type SandboxProcess } from './processes.js';
import { TEST_KEY } from './setup.js';

let sandbox: SandboxProcess;
beforeAll(async () => {
  sandbox = await startSandbox();
}, 60_000);
afterAll(() => sandbox?.stop());

describe.runIf(HAS_SQLITE)(`wallet-mcp processes on one SQLite file (${process.version})`, () => {
  for (const processes of [2, 4]) {
    it(`${processes} processes never refund more than the daily limit between them`, async () => {
      const path = ledgerFile();
      const run = await runFleet(
        sandbox,
        { WALLET_MCP_LEDGER: `sqlite:${path}` },
        processes,
        `s${processes}`,
      );
      expect(
        run.refused.every((text) => /limit 'dailyRefunds'/.test(text)),
        run.refused.join('\n'),
      ).toBe(true);
      expect(run.refused.length).toBeGreaterThan(0);
      expect(run.refunded).toBeLessThanOrEqual(DAILY_REFUNDS);
      expect(run.refunded).toBe(run.told);
      expect(await sqliteSpendLedger({ path }).total('refunds')).toBe(run.refunded);
      console.log(
        `sqlite fleet of ${processes}: ${run.done} refunds, ${run.refunded} Kobo; limit ${DAILY_REFUNDS}`,
      );
    }, 300_000);
  }
});

describe.runIf(!HAS_SQLITE)(`wallet-mcp without node:sqlite (${process.version})`, () => {
  it('refuses to start on the default ledger, naming the choices', async () => {
    const refused = await mcpRefusal({ WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: sandbox.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('node:sqlite');
  });
});
