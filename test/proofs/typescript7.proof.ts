/**
 * The packed packages' types under TypeScript 7 (the native compiler, npm's `latest`) and, for the
 * same programs, the proof install's TypeScript 5.9: a fresh project with the tarballs of
 * `@wallet/node` (its `webhooks` and `testing` subpaths) and `@wallet/agent-toolkit` (and `./ai`),
 * strict with skipLibCheck false, under each module resolution the package smoke test uses. A
 * correct program compiles; each merchant mistake fails with its own diagnostic, on its own line,
 * and nothing else does. `@wallet/cli` ships a bin and no types (tsup `dts: false`, no `exports`).
 *
 * TypeScript 7 removed `moduleResolution: node10` (and `classic`, `baseUrl`, `esModuleInterop:
 * false`): the smoke test's node10 project is checked by 5.9 only; under 7 its migration,
 * `module: commonjs` with the default resolution, is checked instead.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { consumerFiles, TSCONFIGS, type ConsumerTsconfig } from '../package/consumer-sources.mjs';
import { freshProject, removePacked, repo } from './pack.mjs';

const run = promisify(execFile);

/** Types that guide: a real code in a case, and the paid fields after `status === 'SUCCESS'`. */
const GUIDED = `import { Wallet, isWalletError } from '@wallet/node';

export async function paid(wallet: Wallet): Promise<number> {
  try {
    const tx = await wallet.charges.verify('order_1042');
    if (tx.status === 'SUCCESS') return tx.fee + tx.netAmount + tx.paidAt.length;
  } catch (error) {
    if (!isWalletError(error)) throw error;
    switch (error.code) {
      case 'not_found':
        return 0;
    }
    if (error.name === 'ConnectionTimeoutError') return -1;
  }
  return -2;
}
`;

/** Merchant mistakes: each line that ends in a diagnostic code must fail with it, and only it. */
const WRONG = `import { Wallet, isWalletError } from '@wallet/node';

export async function pay(wallet: Wallet): Promise<void> {
  await wallet.charges.dispatch({ reference: 'r', bankId: 'b', authChannel: 'wallet_sms' }); // TS2322
  try {
    await wallet.charges.verify('r');
  } catch (error) {
    if (!isWalletError(error)) throw error;
    switch (error.code) {
      case 'totally_made_up_code': // TS2678
        return;
    }
    if (error.name === 'NotFound') return; // TS2367
  }
  const tx = await wallet.charges.verify('r');
  if (tx.status !== 'SUCCESS') console.log(tx.fee.toFixed()); // TS18049
  if (tx.status === 'SUCCESSFUL') return; // TS2367
}
`;

/** The agent toolkit with the SDK's `Wallet`: its tools, ledgers, MCP server and ./ai. */
const TOOLKIT = `import { Wallet } from '@wallet/node';
import { createMcpServer, memorySpendLedger, redisSpendLedger, sqliteSpendLedger, walletTools, type ToolResult, type WalletTool } from '@wallet/agent-toolkit';
import { walletAiTools } from '@wallet/agent-toolkit/ai';

declare const client: { sendCommand(args: string[]): Promise<unknown> };
const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:1' });
const tools: WalletTool[] = walletTools({ wallet, allow: ['refund_charge'], ledger: redisSpendLedger(client), limits: { dailyRefunds: 1 } });
export const result: Promise<ToolResult> | undefined = tools[0]?.execute({ reference: 'x' });
export const servers = [createMcpServer({ wallet, ledger: sqliteSpendLedger({ path: 'x.sqlite' }) })];
export const ai = walletAiTools({ wallet, ledger: memorySpendLedger(), needsApproval: false });
export const wrong = walletTools({ wallet, allow: ['delete_everything'] }); // TS2322
`;

/** A CommonJS file's types (the .d.cts copy) and the ESM ones (.d.ts) are one type, both ways. */
const COPIES = `import type { Transaction as EsmTransaction } from '@wallet/node' with { 'resolution-mode': 'import' };
import type { WebhookEvent as EsmWebhookEvent } from '@wallet/node/webhooks' with { 'resolution-mode': 'import' };
import type { Transaction } from '@wallet/node';
import type { WebhookEvent } from '@wallet/node/webhooks';

export const toEsm = (tx: Transaction, event: WebhookEvent): [EsmTransaction, EsmWebhookEvent] => [tx, event];
export const fromEsm = (tx: EsmTransaction, event: EsmWebhookEvent): [Transaction, WebhookEvent] => [tx, event];
`;

/** The diagnostics a file's `// TS<n>` comments ask for, as `file(line): TS<n>`. */
function expected(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const code = /\/\/ (TS\d+)$/.exec(line)?.[1];
    return code ? [`${file}(${i + 1}): ${code}`] : [];
  });
}

/** Each of the compiler's `file(line,col): error TS<n>` lines, as `file(line): TS<n>`. */
function reported(stdout: string): string[] {
  return [...stdout.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+)/gm)].map((m) => `${m[1]}(${m[2]}): ${m[3]}`);
}

// Each module resolution and the files it checks: `.mts` is imported, `.cts` required, `.ts` as
// the config says. The toolkit ships ESM only: a CommonJS file requires it (require(esm)) and gets
// the SDK's .d.cts beside the toolkit's ESM declarations; node16 models a Node without
// require(esm), and node10 reads no `exports`, so the toolkit is checked where Node loads it.
type Ext = '.mts' | '.cts' | '.ts';
const PROJECTS: Record<string, { config: ConsumerTsconfig; exts: Ext[]; toolkit: Ext[] }> = {
  nodenext: { config: TSCONFIGS.nodenext(repo), exts: ['.mts', '.cts'], toolkit: ['.mts', '.cts'] },
  node16: { config: TSCONFIGS.node16(repo), exts: ['.mts', '.cts'], toolkit: ['.mts'] },
  bundler: { config: TSCONFIGS.bundler(repo), exts: ['.ts'], toolkit: ['.ts'] },
};

function sources(exts: Ext[], toolkit: Ext[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const ext of exts) {
    files[`app${ext}`] = consumerFiles[`app${ext}`] ?? '';
    files[`guided${ext}`] = GUIDED;
    files[`wrong${ext}`] = WRONG;
    if (toolkit.includes(ext)) files[`toolkit${ext}`] = TOOLKIT;
    if (ext === '.cts') files['copies.cts'] = COPIES;
  }
  return files;
}

const COMPILERS = {
  '7.0.2': fileURLToPath(new URL('./node_modules/typescript7/bin/tsc', import.meta.url)),
  '5.9': fileURLToPath(new URL('./node_modules/typescript/bin/tsc', import.meta.url)),
};

let app: Awaited<ReturnType<typeof freshProject>>;
beforeAll(async () => {
  for (const tsc of Object.values(COMPILERS))
    if (!existsSync(tsc)) throw new Error(`${tsc} is missing: run \`npm run proofs:install\` first`);
  app = await freshProject({
    name: 'typescript7-app',
    workspaces: ['packages/agent-toolkit'],
    // The AI SDK's declarations import 'json-schema' without depending on its types: a project
    // with skipLibCheck false installs them, as the compiler's own hint says.
    dependencies: { ai: '^6.0.0', '@types/json-schema': '^7.0.15' },
    files: sources(['.mts', '.cts', '.ts'], ['.mts', '.cts', '.ts']),
  });
}, 300_000);
afterAll(() => {
  app?.remove();
  removePacked();
});

/** Writes `config` as tsconfig.<name>.json and returns the compiler's exit code and output. */
async function check(
  compiler: string,
  name: string,
  config: object,
): Promise<{ code: number; stdout: string }> {
  writeFileSync(join(app.dir, `tsconfig.${name}.json`), JSON.stringify(config));
  const tsc = run(process.execPath, [compiler, '-p', `tsconfig.${name}.json`, '--pretty', 'false'], {
    cwd: app.dir,
  });
  return tsc.then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

for (const [version, compiler] of Object.entries(COMPILERS)) {
  describe(`the packed types under TypeScript ${version} (strict, skipLibCheck false)`, () => {
    const projects = { ...PROJECTS };
    // What a node10 project becomes under 7: module commonjs, the resolution left to the default.
    if (version.startsWith('7')) {
      const options = { ...TSCONFIGS.node10(repo).compilerOptions };
      delete options.moduleResolution;
      projects.commonjs = {
        config: { compilerOptions: options, files: [] },
        exts: ['.ts'],
        toolkit: ['.ts'],
      };
    } else projects.node10 = { config: TSCONFIGS.node10(repo), exts: ['.ts'], toolkit: [] };

    for (const [name, { config, exts, toolkit }] of Object.entries(projects)) {
      it(`compiles the merchant's programs under ${name}, and refuses each mistake with its diagnostic`, async () => {
        const files = sources(exts, toolkit);
        const { code, stdout } = await check(compiler, `${version}.${name}`, {
          ...config,
          files: Object.keys(files),
        });
        const want = Object.entries(files).flatMap(([file, text]) => expected(file, text));
        expect(reported(stdout).sort()).toEqual(want.sort());
        expect(code).not.toBe(0);
      });
    }

    if (version.startsWith('7')) {
      it('is refused by TypeScript 7 itself under the node10 config 5.9 checks: TS5108, the option was removed', async () => {
        const { code, stdout } = await check(compiler, '7.node10', TSCONFIGS.node10(repo));
        expect(stdout).toMatch(/error TS5108: Option 'moduleResolution=node10' has been removed/);
        expect(code).not.toBe(0);
      });
    }
  });
}
