import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { signWebhook } from '@wallet/node/testing';

import { merchantProject, servedSandbox, TEST_KEY } from './harness.js';
import { proofVersion, repo } from './pack.mjs';
import { proof } from './pending.js';
import { recordFigure } from './timing.js';

// The docs' webhook route, word for word, once per runtime: it is the file merchants copy.
const WEBHOOK_ROUTE = readFileSync(join(repo, 'examples/next-app-router/route.ts'), 'utf8');

// A checkout route as merchants write one: the client made once, at module level, from the
// environment (WALLET_SECRET_KEY, WALLET_BASE_URL), which `next build` does not have.
const chargeRoute = (runtime: 'nodejs' | 'edge'): string => `import { Wallet } from '@wallet/node';

export const runtime = '${runtime}';

const wallet = new Wallet();

export async function POST(request: Request): Promise<Response> {
  const { reference } = (await request.json()) as { reference: string };
  const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference });
  const charge = await wallet.charges.dispatch({
    reference,
    bankId: linkedBanks[0]!.bankId,
    authChannel: 'wallet_push',
  });
  return Response.json({ status: charge.status, runtime: process.env.NEXT_RUNTIME });
}
`;

const FILES = {
  'app/api/node/charge/route.ts': chargeRoute('nodejs'),
  'app/api/edge/charge/route.ts': chargeRoute('edge'),
  'app/api/node/webhooks/route.ts': `${WEBHOOK_ROUTE}\nexport const runtime = 'nodejs';\n`,
  'app/api/edge/webhooks/route.ts': `${WEBHOOK_ROUTE}\nexport const runtime = 'edge';\n`,
  'next.config.mjs': 'export default {};\n',
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['dom', 'dom.iterable', 'esnext'],
      allowJs: true,
      skipLibCheck: true,
      strict: true,
      noEmit: true,
      esModuleInterop: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      resolveJsonModule: true,
      isolatedModules: true,
      jsx: 'react-jsx',
      incremental: true,
      plugins: [{ name: 'next' }],
    },
    include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts'],
    exclude: ['node_modules'],
  }),
};

const DEPENDENCIES = Object.fromEntries(
  ['next', 'react', 'react-dom', 'typescript', '@types/react', '@types/node'].map((name) => [
    name,
    proofVersion(name),
  ]),
);

/** Only what any shell has: none of the WALLET_ variables. */
function bareEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '/tmp',
    NEXT_TELEMETRY_DISABLED: '1',
    CI: 'true',
    ...extra,
  };
}

function runNext(
  dir: string,
  args: string[],
  env: Record<string, string>,
): ChildProcess & { output: () => string } {
  const child = spawn(join(dir, 'node_modules/.bin/next'), args, {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('a Next.js app on the packed tarball: next build without the variables, next start with them', () => {
  let app: Awaited<ReturnType<typeof merchantProject>>;
  let served: Awaited<ReturnType<typeof servedSandbox>>;
  let server: ReturnType<typeof runNext> | undefined;
  let base: string;
  let build: { code: number | null; output: string };

  beforeAll(async () => {
    app = await merchantProject(FILES, DEPENDENCIES, 'next-merchant');
    const started = Date.now();
    const child = runNext(app.dir, ['build'], bareEnv());
    build = { code: await exited(child), output: child.output() };
    recordFigure(
      'next build (Node and Edge route handlers)',
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await exited(server);
    }
    await served?.close();
    app?.remove();
  });

  proof('builds with no WALLET_SECRET_KEY, WALLET_BASE_URL or WALLET_WEBHOOK_SECRET set', () => {
    expect(build.code, build.output).toBe(0);
  });

  describe('next start', () => {
    beforeAll(async () => {
      if (build.code !== 0) return;
      served = await servedSandbox();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      server = runNext(
        app.dir,
        ['start', '-H', '127.0.0.1', '-p', String(port)],
        bareEnv({
          WALLET_SECRET_KEY: TEST_KEY,
          WALLET_BASE_URL: served.input.baseUrl,
          WALLET_WEBHOOK_SECRET: served.input.webhook.secret,
        }),
      );
      for (let i = 0; ; i++) {
        try {
          await fetch(`${base}/api/node/charge`);
          break;
        } catch {
          if (server.exitCode !== null || i > 600)
            throw new Error(`next start did not listen:\n${server.output()}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    });

    describe.each(['node', 'edge'] as const)('route handlers on the %s runtime', (runtime) => {
      const reference = `order_next_${runtime}_${Date.now().toString(36)}`;

      proof('creates a charge against the sandbox with the module-level new Wallet()', async () => {
        expect(build.code, 'next build failed').toBe(0);
        const response = await fetch(`${base}/api/${runtime}/charge`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ reference }),
        });
        const body = await response.text();
        expect(response.status, `${body}\n${server?.output()}`).toBe(200);
        expect(JSON.parse(body)).toEqual({
          status: 'PENDING_AUTHORIZATION',
          runtime: runtime === 'node' ? 'nodejs' : 'edge',
        });
        expect(served.sandbox.requests.filter((r) => r.path === '/v1/charges/dispatch').at(-1)).toMatchObject(
          {
            status: 200,
          },
        );
      });

      proof('answers a signed webhook 200 (the event handled) and a forged one 400', async () => {
        expect(build.code, 'next build failed').toBe(0);
        const delivery = signWebhook(
          { event: 'charge.success', data: { reference, amount: 500_000, customer: { handle: '@ada' } } },
          served.input.webhook.secret,
        );
        const post = (body: string): Promise<Response> =>
          fetch(`${base}/api/${runtime}/webhooks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-wallet-signature': delivery.signature },
            body,
          });
        const signed = await post(delivery.body);
        expect(signed.status, `${await signed.text()}\n${server?.output()}`).toBe(200);
        const forged = await post(delivery.body.replace('"amount":500000', '"amount":1'));
        expect(forged.status).toBe(400);
        // The docs' route logs each paid charge it handles.
        expect(server?.output()).toContain(`paid: ${reference}, 500000 Kobo`);
      });
    });
  });
});
