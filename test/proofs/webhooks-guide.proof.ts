/**
 * The webhooks guide's Express 5, Fastify 5 and Hono snippets, as written: each is read from
 * docs/webhooks.md at run time, written into a fresh project that installs the packed tarball and
 * the framework (versions of test/proofs/package.json), type-checked under strict settings against
 * the tarball's and the framework's own types, compiled, and started on a loopback port. Then
 * deliveries as Wallet sends them (signed with signWebhook) and as a forger would. What the
 * merchant observes is what `fulfilOrder`, the guide's name for their own code, printed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { signWebhook } from '@wallet/node/testing';

import { guideSnippet } from './guide-snippets.js';
import { freshProject, proofVersion, removePacked } from './pack.mjs';
import { proof } from './pending.js';

const GUIDE = 'docs/webhooks.md';
const SECRET = 'whsec_guide_proof_4eC39HqLyjWDarjt';

/** Per framework: the guide's heading, what to install, and how the merchant's app listens. */
const FRAMEWORKS = [
  {
    name: 'Express 5',
    heading: '### Express',
    dependencies: ['express', '@types/express'],
    listen: `app.listen(PORT, '127.0.0.1', () => console.log('listening'));`,
  },
  {
    name: 'Fastify 5',
    heading: '### Fastify',
    dependencies: ['fastify'],
    listen: `await app.listen({ port: PORT, host: '127.0.0.1' });\nconsole.log('listening');`,
  },
  {
    name: 'Hono 4 on Node',
    heading: '### Hono on Node',
    dependencies: ['hono', '@hono/node-server'],
    listen: [
      `import { serve } from '@hono/node-server';`,
      `serve({ fetch: app.fetch, port: PORT, hostname: '127.0.0.1' }, () => console.log('listening'));`,
    ].join('\n'),
  },
] as const;

/** The guide's snippet word for word, then what the guide leaves to the merchant. */
const server = (snippet: string, listen: string): string => `${snippet}
// The merchant's own code, which the guide leaves to you: ship the order (here, say so).
import type { ChargeSuccessData } from '@wallet/node/webhooks';
async function fulfilOrder(data: ChargeSuccessData): Promise<void> {
  console.log(\`fulfilled \${JSON.stringify(data)}\`);
}
const PORT = Number(process.env.PORT);
${listen}
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
  },
  include: ['server.ts'],
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  output: () => string;
}

/** Starts `node out/server.js` and resolves once it printed `listening`. */
function start(dir: string, port: number): Promise<Running> {
  const child = spawn(process.execPath, ['out/server.js'], {
    cwd: dir,
    env: { PATH: process.env['PATH'] ?? '', PORT: String(port), WALLET_WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/^listening$/m.test(output)) resolve({ child, output: () => output });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server exited ${code}:\n${output}`)));
  });
}

/** The orders `fulfilOrder` shipped, in the order it shipped them. */
const fulfilled = (output: string): unknown[] =>
  [...output.matchAll(/^fulfilled (.*)$/gm)].map((line) => JSON.parse(line[1]!) as unknown);

const projects: { remove: () => void }[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
  removePacked();
});

describe.each(FRAMEWORKS)('the webhooks guide’s $name snippet, as written', (framework) => {
  let dir = '';
  let typecheck: { status: number | null; output: string };
  let running: Running | undefined;
  let url = '';

  beforeAll(async () => {
    const snippet = guideSnippet(GUIDE, framework.heading);
    const dependencies = Object.fromEntries(
      [...framework.dependencies, 'typescript', '@types/node'].map((name) => [name, proofVersion(name)]),
    );
    const project = await freshProject({
      name: `webhooks-guide-${framework.dependencies[0]}`,
      dependencies,
      files: { 'server.ts': server(snippet, framework.listen), 'tsconfig.json': TSCONFIG },
    });
    projects.push(project);
    dir = project.dir;
    const tsc = spawnSync(join(dir, 'node_modules/.bin/tsc'), ['-p', '.'], { cwd: dir, encoding: 'utf8' });
    typecheck = { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` };
    if (tsc.status !== 0) return;
    const port = await freePort();
    url = `http://127.0.0.1:${port}/webhooks/wallet`;
    running = await start(dir, port);
  });
  afterAll(() => {
    running?.child.kill('SIGTERM');
  });

  const event = (reference: string) => ({
    event: 'charge.success',
    data: { reference, amount: 500_000, customer: { handle: '@ada' } },
  });
  const post = async (body: string, signature?: string): Promise<{ status: number; body: string }> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'x-wallet-signature': signature }),
      },
      body,
    });
    return { status: response.status, body: await response.text() };
  };

  proof('type-checks under strict settings against the packed types, and starts', () => {
    expect(typecheck.status, typecheck.output).toBe(0);
    expect(running?.child.exitCode).toBe(null);
  });

  proof(
    'forged deliveries are answered 400 and never reach onEvent; the genuine one 200, run once',
    async () => {
      expect(typecheck.status, typecheck.output).toBe(0);
      const reference = `order_guide_${framework.dependencies[0]}`;
      const genuine = signWebhook(event(reference), SECRET);
      const refused = { status: 400, body: '{"received":false}' };
      // Signed with another secret, the body changed after signing, and no signature at all.
      expect(await post(genuine.body, signWebhook(event(reference), 'whsec_forger').signature)).toEqual(
        refused,
      );
      expect(await post(genuine.body.replace('500000', '1'), genuine.signature)).toEqual(refused);
      expect(await post(genuine.body)).toEqual(refused);

      expect(await post(genuine.body, genuine.signature)).toEqual({ status: 200, body: '{"received":true}' });
      // The handler answers 200 once onEvent resolved; its line is in the pipe after any forged one.
      await expect.poll(() => fulfilled(running!.output()).length).toBe(1);
      expect(fulfilled(running!.output())).toEqual([event(reference).data]);
    },
  );

  proof(
    'a second delivery of the same event is acknowledged 200; with no dedupe store it runs onEvent again',
    async () => {
      expect(typecheck.status, typecheck.output).toBe(0);
      const reference = `order_guide_again_${framework.dependencies[0]}`;
      const genuine = signWebhook(event(reference), SECRET);
      const before = fulfilled(running!.output()).length;
      for (let i = 0; i < 2; i++)
        expect(await post(genuine.body, genuine.signature)).toEqual({
          status: 200,
          body: '{"received":true}',
        });
      // What the guide says: without `dedupe`, each copy runs onEvent, so fulfilOrder must be idempotent.
      await expect.poll(() => fulfilled(running!.output()).length).toBe(before + 2);
    },
  );
});
