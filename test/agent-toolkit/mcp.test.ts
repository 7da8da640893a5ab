/**
 * The MCP proof: the official MCP client spawns `wallet-mcp` over stdio against the sandbox bin,
 * lists the tools and runs a whole flow; then the same server under attack, with the sandbox's own
 * request log showing that nothing was sent.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { mcpRefusal, startMcp, startSandbox, type McpSession, type SandboxProcess } from './processes.js';
import { LIVE_KEY, TEST_KEY } from './setup.js';

let sandbox: SandboxProcess;
let mcp: McpSession;
beforeAll(async () => {
  sandbox = await startSandbox();
  mcp = await startMcp({
    WALLET_SECRET_KEY: TEST_KEY,
    WALLET_BASE_URL: sandbox.url,
    WALLET_MCP_ALLOW: 'dispatch_charge,refund_charge',
    WALLET_MCP_CONFIRM: 'dispatch_charge,refund_charge',
    WALLET_MCP_LIMIT_PER_CHARGE: '1000000',
    WALLET_MCP_LIMIT_PER_REFUND: '300000',
    WALLET_MCP_LIMIT_DAILY_REFUNDS: '400000',
  });
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await sandbox?.stop();
});

const moneyPosts = async () =>
  (await sandbox.requests()).filter(
    (line) => line === 'POST /v1/refunds' || line === 'POST /v1/charges/dispatch',
  );

describe('wallet-mcp over stdio', () => {
  it("tells the client its name and the toolkit's own version", async () => {
    const manifest = new URL('../../packages/agent-toolkit/package.json', import.meta.url);
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    expect(mcp.client.getServerVersion()).toMatchObject({ name: 'wallet', version });
  });

  it('lists the five tools with JSON Schemas from the SDK and MCP annotations', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'dispatch_charge',
      'get_charge',
      'refund_charge',
      'resolve_customer',
      'wait_for_charge',
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName['dispatch_charge']!.inputSchema).toMatchObject({
      type: 'object',
      required: ['handle', 'amount', 'reference', 'authChannel'],
      additionalProperties: false,
      properties: {
        amount: { type: 'integer', minimum: 1 },
        authChannel: { enum: ['wallet_push', 'wallet_qr'] },
        confirmationToken: { type: 'string' },
      },
    });
    expect(byName['refund_charge']!.inputSchema.required).toEqual(['reference']);
    expect(byName['refund_charge']!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName['get_charge']!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName['dispatch_charge']!.description).toContain('Kobo');
  });

  it('runs a whole flow: resolve, dispatch (preview, confirm), authorize, wait, refund (preview, confirm)', async () => {
    const resolved = await mcp.call('resolve_customer', {
      handle: '@ada',
      amount: 500_000,
      reference: 'mcp_1',
    });
    expect(resolved.text).toContain('Ada Lovelace');
    expect(resolved.data.linkedBanks[0].bankId).toBe('bnk_ada_gtb');

    const charge = { handle: '@ada', amount: 500_000, reference: 'mcp_1', authChannel: 'wallet_push' };
    const preview = await mcp.call('dispatch_charge', charge);
    expect(preview.text).toContain('PREVIEW');
    expect(preview.data.amount).toEqual({ kobo: 500_000, naira: '₦5,000.00' });
    expect(await moneyPosts()).toEqual([]);
    const dispatched = await mcp.call('dispatch_charge', {
      ...charge,
      confirmationToken: preview.data.confirmationToken,
    });
    expect(dispatched.isError).toBe(false);
    expect(dispatched.data.status).toBe('PENDING_AUTHORIZATION');

    await sandbox.authorize('mcp_1');
    const paid = await mcp.call('wait_for_charge', { reference: 'mcp_1', timeoutSeconds: 30 });
    expect(paid.data).toMatchObject({ status: 'SUCCESS', amount: { kobo: 500_000 }, fee: { kobo: 10_000 } });
    expect(paid.text).toContain('Charge: paid');

    const refundPreview = await mcp.call('refund_charge', { reference: 'mcp_1', amount: 150_000 });
    expect(refundPreview.text).toContain('Ada Lovelace');
    const refunded = await mcp.call('refund_charge', {
      reference: 'mcp_1',
      amount: 150_000,
      confirmationToken: refundPreview.data.confirmationToken,
    });
    expect(refunded.isError).toBe(false);
    expect(refunded.data).toMatchObject({
      status: 'PROCESSED',
      amount: { kobo: 150_000, naira: '₦1,500.00' },
    });
    expect(await moneyPosts()).toEqual(['POST /v1/charges/dispatch', 'POST /v1/refunds']);
  });

  it('refuses every attack, and the sandbox log shows no money call sent', async () => {
    const before = await moneyPosts();
    const attacks: [string, Record<string, unknown>, RegExp][] = [
      [
        'dispatch_charge',
        { handle: '@ada', amount: 1_000_001, reference: 'mcp_big', authChannel: 'wallet_push' },
        /limit 'perCharge'/,
      ],
      ['refund_charge', { reference: 'mcp_1', amount: 300_001 }, /limit 'perRefund'/],
      ['refund_charge', { reference: 'mcp_1', amount: 250_001 + 0 }, /limit 'dailyRefunds'/],
      ['refund_charge', { reference: 'mcp_1', amount: -5 }, /must be greater than 0/],
      [
        'refund_charge',
        { reference: 'mcp_1', amount: 1000, confirmationToken: 'wct_forged' },
        /not one this tool issued/,
      ],
      ['get_charge', { reference: 'mcp_1', refrence: 'x' }, /did you mean 'reference'/],
    ];
    for (const [tool, args, answer] of attacks) {
      const result = await mcp.call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(result.text).toMatch(answer);
    }
    // A token reused, and a token with changed arguments (the prompt injection that edits the amount).
    const preview = await mcp.call('refund_charge', { reference: 'mcp_1', amount: 1_000 });
    const token = preview.data.confirmationToken as string;
    const changed = await mcp.call('refund_charge', {
      reference: 'mcp_1',
      amount: 240_000,
      confirmationToken: token,
    });
    expect(changed.text).toMatch(/issued for other arguments/);
    expect(
      (await mcp.call('refund_charge', { reference: 'mcp_1', amount: 1_000, confirmationToken: token }))
        .isError,
    ).toBe(false);
    const reused = await mcp.call('refund_charge', {
      reference: 'mcp_1',
      amount: 1_000,
      confirmationToken: token,
    });
    expect(reused.text).toMatch(/already used/);
    expect(await moneyPosts()).toEqual([...before, 'POST /v1/refunds']);
  });

  it('refuses an expired token', async () => {
    const short = await startMcp({
      WALLET_SECRET_KEY: TEST_KEY,
      WALLET_BASE_URL: sandbox.url,
      WALLET_MCP_ALLOW: 'refund_charge',
      WALLET_MCP_CONFIRM_TTL: '1',
    });
    try {
      const before = await moneyPosts();
      const preview = await short.call('refund_charge', { reference: 'mcp_1', amount: 1_000 });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const late = await short.call('refund_charge', {
        reference: 'mcp_1',
        amount: 1_000,
        confirmationToken: preview.data.confirmationToken,
      });
      expect(late.text).toMatch(/has expired/);
      expect(await moneyPosts()).toEqual(before);
    } finally {
      await short.close();
    }
  });

  it('will not start on a live key without WALLET_MCP_ALLOW_LIVE=1, sending nothing', async () => {
    const before = await sandbox.requests();
    const refused = await mcpRefusal({
      WALLET_SECRET_KEY: LIVE_KEY,
      WALLET_BASE_URL: sandbox.url,
      WALLET_MCP_ALLOW: 'refund_charge',
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to start: WALLET_SECRET_KEY is a live key/);
    const typo = await mcpRefusal({
      WALLET_SECRET_KEY: TEST_KEY,
      WALLET_BASE_URL: sandbox.url,
      WALLET_MCP_LIMIT_DAILY_REFUNDS: '₦5000',
    });
    expect(typo.stderr).toMatch(/WALLET_MCP_LIMIT_DAILY_REFUNDS must be a whole number of Kobo/);
    expect(await sandbox.requests()).toEqual(before);
  });
});
