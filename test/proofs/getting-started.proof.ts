/**
 * The getting started guide, step by step as written, twice in a row against the one sandbox the
 * package ships (`wallet-sandbox`, started from the fresh project's bin as the guide starts it,
 * delivering webhooks to the guide's Express server): a merchant who runs it again must pass
 * again. Each step's code is read from docs/getting-started.md at run time into a fresh project
 * that installs the packed tarball, Express 5 and TypeScript; the TypeScript files are type-checked
 * under strict settings and run compiled. The one change: the server listens on a free loopback
 * port instead of the guide's 3000, which the sandbox's `--webhook-url` names in its place.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { Wallet } from '@wallet/node';

import { freePort, merchantTsconfig, startServer, type Running } from './guide-server.js';
import { guideBlock, guideSnippet } from './guide-snippets.js';
import { freshProject, proofVersion, removePacked } from './pack.mjs';
import { proof } from './pending.js';

const GUIDE = 'docs/getting-started.md';
const run = promisify(execFile);
const GUIDE_LISTEN = 'app.listen(3000);';
const APPROVE = /^Approve as Ada: curl -X POST (http:\/\/\S+\/_sandbox\/charges\/(order_\d+)\/authorize)$/m;

const TSCONFIG = merchantTsconfig(['pay.ts', 'server.ts', 'refund.ts']);

describe('the getting started guide, run as written twice in a row against wallet-sandbox', () => {
  let project: Awaited<ReturnType<typeof freshProject>>;
  let typecheck: { status: number | null; output: string };
  let sandbox: Running;
  let server: Running;
  /** The environment step 3 exports: the test key and the sandbox's address. */
  let env: Record<string, string>;

  beforeAll(async () => {
    const serverCode = guideSnippet(GUIDE, '## 5. Learn the outcome from the webhook');
    if (!serverCode.includes(GUIDE_LISTEN)) throw new Error(`step 5 no longer ends with ${GUIDE_LISTEN}`);
    project = await freshProject({
      name: 'getting-started',
      dependencies: Object.fromEntries(
        ['express', '@types/express', 'typescript', '@types/node'].map((name) => [name, proofVersion(name)]),
      ),
      files: {
        'pay.mjs': guideBlock(GUIDE, '## 4. Charge a customer', 'js'),
        'pay.ts': guideSnippet(GUIDE, '## 4. Charge a customer'),
        'server.ts': serverCode.replace(
          GUIDE_LISTEN,
          `app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));`,
        ),
        'refund.ts': guideSnippet(GUIDE, '## 6. Refund'),
        'tsconfig.json': TSCONFIG,
      },
    });
    const tsc = spawnSync(join(project.dir, 'node_modules/.bin/tsc'), ['-p', '.'], {
      cwd: project.dir,
      encoding: 'utf8',
    });
    typecheck = { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` };

    const [sandboxPort, serverPort] = [await freePort(), await freePort()];
    sandbox = await startServer(
      join(project.dir, 'node_modules/.bin/wallet-sandbox'),
      [
        ...['--port', String(sandboxPort)],
        ...['--webhook-url', `http://127.0.0.1:${serverPort}/webhooks/wallet`],
        ...['--webhook-secret', 'whsec_demo'],
      ],
      { cwd: project.dir, env: {}, ready: /wallet-sandbox listening on http:\/\/127\.0\.0\.1:\d+/ },
    );
    env = { WALLET_SECRET_KEY: 'sk_test_demo', WALLET_BASE_URL: `http://127.0.0.1:${sandboxPort}` };
    if (typecheck.status !== 0) return;
    server = await startServer(process.execPath, ['out/server.js'], {
      cwd: project.dir,
      env: { ...env, WALLET_WEBHOOK_SECRET: 'whsec_demo', PORT: String(serverPort) },
      ready: /^listening$/m,
    });
  });
  afterAll(() => {
    server?.child.kill('SIGTERM');
    sandbox?.child.kill('SIGTERM');
    project?.remove();
    removePacked();
  });

  /** Runs `node file args` in the project as the guide runs it, with step 3's environment. */
  const node = async (file: string, ...args: string[]) =>
    run(process.execPath, [file, ...args], {
      cwd: project.dir,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      timeout: 30_000,
    });
  const fulfilled = (reference: string): string[] =>
    [...server.output().matchAll(/^fulfil (order_\d+) (\d+)$/gm)]
      .filter((line) => line[1] === reference)
      .map((line) => line[0]);

  proof('the TypeScript steps type-check under strict settings against the packed types', () => {
    expect(typecheck.status, typecheck.output).toBe(0);
  });

  const references: string[] = [];
  for (const round of [1, 2])
    proof(
      `run ${round}: charge, approve, the webhook fulfils once, pay.ts, then refund in full`,
      async () => {
        expect(typecheck.status, typecheck.output).toBe(0);
        // Step 4 in plain JavaScript: a new order, its prompt sent, and the curl line to approve it.
        const pay = await node('pay.mjs');
        expect(pay.stdout).toContain('PENDING_AUTHORIZATION');
        const [, approveUrl, reference] = APPROVE.exec(pay.stdout) ?? [];
        expect(approveUrl, pay.stdout).toBeDefined();
        expect(references).not.toContain(reference);
        references.push(reference!);
        // Playing Ada: the guide's curl.
        expect((await fetch(approveUrl!, { method: 'POST' })).status).toBe(200);
        // Step 5: the sandbox delivers charge.success; onEvent verifies, then fulfils, once.
        await expect.poll(() => fulfilled(reference!)).toEqual([`fulfil ${reference} 500000`]);

        // Step 4 in TypeScript, its own new order (waiting for Ada, so it prints nothing).
        await node('out/pay.js');
        // Step 6: part, then whatever is left; then nothing is left to refund.
        const refund = await node('out/refund.js', reference!);
        expect(refund.stderr).toBe('');
        const wallet = new Wallet({ apiKey: env['WALLET_SECRET_KEY'], baseUrl: env['WALLET_BASE_URL'] });
        await expect(wallet.refunds.create({ reference: reference!, amount: 1 })).rejects.toMatchObject({
          status: 422,
        });
        await wallet.close();
      },
    );
});
