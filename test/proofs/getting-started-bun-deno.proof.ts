/**
 * Getting started on Bun ("as on Node": `bun pay.mjs`) and on Deno, as the guide says: its `pay.ts` run with the command the guide gives
 * (`deno run --allow-env --allow-net pay.ts`) in a fresh project that installs the packed tarball,
 * against a sandbox on loopback; and without those flags, the guide's promise that the SDK names
 * the missing flag as a `WalletError` and sends nothing.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { Wallet } from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

import { guideBlock, guideSnippet } from './guide-snippets.js';
import { freshProject, proofBin, repo, removePacked } from './pack.mjs';
import { proof } from './pending.js';

const GUIDE = 'docs/getting-started.md';
const deno = (cwd: string, args: string[], baseUrl: string) => runtime('deno', cwd, args, baseUrl);
const APPROVE = /^Approve as Ada: curl -X POST (http:\/\/\S+\/_sandbox\/charges\/(order_\d+)\/authorize)$/m;

/** `bun` or `deno` with `args` in `cwd` and step 3's environment: how it exited, what it printed. */
function runtime(bin: 'bun' | 'deno', cwd: string, args: string[], baseUrl: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      proofBin(bin),
      args,
      {
        cwd,
        timeout: 60_000,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: cwd,
          NO_COLOR: '1',
          DENO_NO_UPDATE_CHECK: '1',
          DENO_NO_PROMPT: '1',
          WALLET_SECRET_KEY: 'sk_test_demo',
          WALLET_BASE_URL: baseUrl,
        },
      },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe('getting started’s pay.mjs on Bun 1 and pay.ts on Deno 2', () => {
  let project: Awaited<ReturnType<typeof freshProject>>;
  let sandbox: Sandbox;
  let baseUrl: string;
  /** The guide's Deno command, split: its flags and the file. */
  let flags: string[];
  let file: string;

  beforeAll(async () => {
    const install = readFileSync(join(repo, GUIDE), 'utf8');
    const command = /`deno run((?: --[\w-]+)*) (\w+\.ts)`/.exec(install);
    if (!command) throw new Error(`${GUIDE} gives no \`deno run … pay.ts\` command`);
    flags = command[1]!.trim().split(' ');
    file = command[2]!;
    project = await freshProject({
      name: 'getting-started-deno',
      files: {
        [file]: guideSnippet(GUIDE, '## 4. Charge a customer'),
        'pay.mjs': guideBlock(GUIDE, '## 4. Charge a customer', 'js'),
      },
    });
    sandbox = createSandbox();
    baseUrl = (await sandbox.listen()).url;
  });
  afterAll(async () => {
    await sandbox?.close();
    project?.remove();
    removePacked();
  });

  proof(
    'Bun runs pay.mjs as on Node: a new order, its prompt sent, and the approval that pays it',
    async () => {
      const run = await runtime('bun', project.dir, ['pay.mjs'], baseUrl);
      expect(run.code, run.stderr).toBe(0);
      const [, approveUrl, reference] = APPROVE.exec(run.stdout) ?? [];
      expect(approveUrl, run.stdout).toBeDefined();
      expect((await fetch(approveUrl!, { method: 'POST' })).status).toBe(200);
      expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'POST /v1/charges/resolve-handle 200',
        'POST /v1/charges/dispatch 200',
        `GET /v1/charges/verify/${reference} 200`,
      ]);
      const wallet = new Wallet({ apiKey: 'sk_test_demo', baseUrl });
      expect(await wallet.charges.verify(reference!)).toMatchObject({ status: 'SUCCESS', amount: 500_000 });
      await wallet.close();
    },
  );

  proof(
    'Deno with the guide’s flags resolves, dispatches and verifies a new order on the sandbox',
    async () => {
      expect(flags).toEqual(['--allow-env', '--allow-net']);
      const before = sandbox.requests.length;
      const run = await deno(project.dir, ['run', ...flags, file], baseUrl);
      expect(run.code, run.stderr).toBe(0);
      expect(
        sandbox.requests
          .slice(before)
          .map((r) => `${r.method} ${r.path.replace(/order_\d+/, 'order_N')} ${r.status}`),
      ).toEqual([
        'POST /v1/charges/resolve-handle 200',
        'POST /v1/charges/dispatch 200',
        'GET /v1/charges/verify/order_N 200',
      ]);
    },
  );

  proof(
    'Deno without --allow-env: the first call is a ValidationError naming both flags, and nothing is sent',
    async () => {
      const before = sandbox.requests.length;
      const run = await deno(project.dir, ['run', '--allow-net', file], baseUrl);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(
        /Uncaught \(in promise\) ValidationError: .*WALLET_SECRET_KEY: is not set, and Deno/,
      );
      expect(run.stderr).toContain('run with --allow-env --allow-net');
      expect(run.stderr).toContain('Nothing was sent.');
      expect(sandbox.requests.length).toBe(before);
    },
  );

  proof(
    'Deno without --allow-net: its NotCapable comes out as a WalletError naming the flags, nothing sent',
    async () => {
      const before = sandbox.requests.length;
      const run = await deno(project.dir, ['run', '--allow-env', file], baseUrl);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/Uncaught \(in promise\) ValidationError: .*not given network access/);
      expect(run.stderr).toContain('run with --allow-env --allow-net');
      expect(run.stderr).not.toMatch(/Uncaught \(in promise\) NotCapable/);
      expect(sandbox.requests.length).toBe(before);
    },
  );
});
