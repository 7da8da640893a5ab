/**
 * @wallet/agent-toolkit from its packed tarball, in a fresh project beside the SDK's tarball: the
 * tools (their JSON Schemas from the SDK's bundled schemas), limits and confirmation in process,
 * the ./ai subpath with the AI SDK installed, the TypeScript types, and the `wallet-mcp` bin driven
 * by the official MCP client against the packed `wallet-sandbox` bin.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshProject, removePacked, repo } from './pack.mjs';

const run = promisify(execFile);

const MAIN = `import { Wallet } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';
import { memorySpendLedger, sqliteSpendLedger, walletTools } from '@wallet/agent-toolkit';
import { walletAiTools } from '@wallet/agent-toolkit/ai';

// The default ledger is a SQLite file through node:sqlite; without it walletTools refuses.
process.env.XDG_STATE_HOME = new URL('./state', import.meta.url).pathname;
const sqlite = process.getBuiltinModule('node:sqlite') !== undefined;
let required = null;
try {
  walletTools({ wallet: { charges: {}, refunds: {}, mode: 'test' } });
} catch (error) {
  required = error.code;
}
const ledger = sqlite ? sqliteSpendLedger({ path: new URL('./spend-ledger.sqlite', import.meta.url).pathname }) : memorySpendLedger();
const sandbox = createSandbox();
const wallet = new Wallet({ apiKey: 'sk_test_packedProof000000000000001', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
const list = walletTools({ wallet, ledger, allow: ['dispatch_charge', 'refund_charge'], limits: { perRefund: 100000 } });
const tools = Object.fromEntries(list.map((tool) => [tool.name, tool]));
const charged = await tools.dispatch_charge.execute({ handle: '@ada', amount: 200000, reference: 'packed_1', authChannel: 'wallet_push' });
await sandbox.authorize('packed_1');
const over = await tools.refund_charge.execute({ reference: 'packed_1' });
const preview = await tools.refund_charge.execute({ reference: 'packed_1', amount: 50000 });
const done = await tools.refund_charge.execute({ reference: 'packed_1', amount: 50000, confirmationToken: preview.data.confirmationToken });
const typo = await tools.get_charge.execute({ refrence: 'packed_1' });
console.log(JSON.stringify({
  schema: tools.dispatch_charge.inputSchema,
  charged: charged.isError,
  over: over.data.refusedBy,
  done: done.data.amount,
  typo: typo.text,
  ai: Object.keys(walletAiTools({ wallet, ledger })).sort(),
  sqlite,
  required,
  counted: await ledger.total('refunds'),
}));
await sandbox.close();
`;

const TYPES = `import { Wallet } from '@wallet/node';
import { walletTools, redisSpendLedger, sqliteSpendLedger, createMcpServer, type WalletTool, type ToolResult } from '@wallet/agent-toolkit';
import { walletAiTools } from '@wallet/agent-toolkit/ai';

declare const client: { sendCommand(args: string[]): Promise<unknown> };
const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:1' });
const tools: WalletTool[] = walletTools({ wallet, allow: ['refund_charge'], ledger: redisSpendLedger(client), limits: { dailyRefunds: 1 } });
const result: Promise<ToolResult> = tools[0]!.execute({ reference: 'x' });
void result;
void createMcpServer({ wallet, ledger: sqliteSpendLedger({ path: 'x.sqlite' }) });
void walletAiTools({ wallet, needsApproval: false });
// @ts-expect-error a tool that does not exist is refused by the types too
walletTools({ wallet, allow: ['delete_everything'] });
`;

let app: Awaited<ReturnType<typeof freshProject>>;
beforeAll(async () => {
  app = await freshProject({
    name: 'agent-app',
    workspaces: ['packages/agent-toolkit'],
    dependencies: { ai: '^6.0.0' },
    files: {
      'main.mjs': MAIN,
      'types.ts': TYPES,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['types.ts'],
      }),
    },
  });
}, 300_000);
afterAll(() => {
  app?.remove();
  removePacked();
});

describe('@wallet/agent-toolkit from its tarball', () => {
  it('runs the tools in a fresh project: schemas from the packed SDK, limits, confirmation, the ./ai subpath', async () => {
    const { stdout } = await run(process.execPath, ['main.mjs'], { cwd: app.dir });
    const out = JSON.parse(stdout) as {
      schema: object;
      charged: boolean;
      over: string;
      done: unknown;
      typo: string;
      ai: string[];
      sqlite: boolean;
      required: string | null;
      counted: number;
    };
    // On a file when this Node has node:sqlite (the default works); otherwise ledger_required.
    expect(out.required).toBe(out.sqlite ? null : 'ledger_required');
    expect(out.counted).toBe(50_000);
    expect(out.schema).toMatchObject({
      properties: { amount: { type: 'integer' }, authChannel: { enum: ['wallet_push', 'wallet_qr'] } },
    });
    expect(out.charged).toBe(false);
    expect(out.over).toBe('perRefund');
    expect(out.done).toEqual({ kobo: 50_000, naira: '₦500.00' });
    expect(out.typo).toContain("did you mean 'reference'");
    expect(out.ai).toEqual(['get_charge', 'resolve_customer', 'wait_for_charge']);
  });

  it('type-checks a consumer under NodeNext', async () => {
    await run(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app.dir });
  });

  it('serves wallet-mcp from the installed bin to the official MCP client', async () => {
    const sandbox = spawn(join(app.dir, 'node_modules/.bin/wallet-sandbox'), ['--port', '0', '--quiet'], {
      cwd: app.dir,
    });
    try {
      let out = '';
      sandbox.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        sandbox.stdout.on('data', (chunk: string) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        sandbox.once('exit', (code) => reject(new Error(`wallet-sandbox exited ${code}`)));
      });
      const client = new Client({ name: 'packed-proof', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: join(app.dir, 'node_modules/.bin/wallet-mcp'),
          cwd: app.dir,
          env: {
            WALLET_SECRET_KEY: 'sk_test_packedProof000000000000001',
            WALLET_BASE_URL: url,
            WALLET_MCP_ALLOW: 'refund_charge',
            WALLET_MCP_LEDGER: process.getBuiltinModule('node:sqlite')
              ? `sqlite:${join(app.dir, 'mcp-ledger.sqlite')}`
              : 'memory',
            WALLET_LOG: 'off',
          },
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual([
          'get_charge',
          'refund_charge',
          'resolve_customer',
          'wait_for_charge',
        ]);
        const resolved = await client.callTool({
          name: 'resolve_customer',
          arguments: { handle: '@ada', amount: 100, reference: 'packed_mcp' },
        });
        expect((resolved.content as { text: string }[])[0]!.text).toContain('Ada Lovelace');
      } finally {
        await client.close();
      }
    } finally {
      sandbox.kill('SIGTERM');
      await once(sandbox, 'exit');
    }
  });
});
