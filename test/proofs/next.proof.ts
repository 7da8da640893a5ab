import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { signWebhook } from '@wallet/node/testing';

import { guideSnippet } from './guide-snippets.js';
import { merchantProject, servedSandbox, TEST_KEY } from './harness.js';
import { proofVersion, repo } from './pack.mjs';
import { proof } from './pending.js';
import { recordFigure } from './timing.js';

// The webhooks guide's route, read from the guide (never copied), once per runtime, with the
// merchant's own `fulfilOrder` that the guide leaves to them; and the example file the guide links.
const WEBHOOK_ROUTE = `${guideSnippet('docs/webhooks.md', '### Next.js App Router')}
import type { ChargeSuccessData } from '@wallet/node/webhooks';
async function fulfilOrder(data: ChargeSuccessData): Promise<void> {
  console.log(\`paid: \${data.reference}, \${data.amount} Kobo\`);
}
`;
const EXAMPLE_ROUTE = readFileSync(join(repo, 'examples/next-app-router/route.ts'), 'utf8');

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
  'app/api/example/webhooks/route.ts': EXAMPLE_ROUTE,
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

    /** A forged delivery (400, never handled), then the genuine one (200, handled once). */
    async function expectWebhookRoute(path: string, reference: string): Promise<void> {
      expect(build.code, 'next build failed').toBe(0);
      const delivery = signWebhook(
        { event: 'charge.success', data: { reference, amount: 500_000, customer: { handle: '@ada' } } },
        served.input.webhook.secret,
      );
      const post = (body: string): Promise<Response> =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-wallet-signature': delivery.signature },
          body,
        });
      const forged = await post(delivery.body.replace('"amount":500000', '"amount":1'));
      expect(forged.status).toBe(400);
      const signed = await post(delivery.body);
      expect(signed.status, `${await signed.text()}\n${server?.output()}`).toBe(200);
      // The route logs each paid charge it handles: this one once, the forged one never.
      await expect
        .poll(() => server?.output().match(new RegExp(`paid: ${reference}, \\d+ Kobo`, 'g')))
        .toEqual([`paid: ${reference}, 500000 Kobo`]);
    }

    proof('the example file the guide links answers a forged webhook 400 and a signed one 200, once', () =>
      expectWebhookRoute('/api/example/webhooks', `order_next_example_${Date.now().toString(36)}`),
    );

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

      proof('the guide’s route answers a forged webhook 400 and a signed one 200, handled once', () =>
        expectWebhookRoute(`/api/${runtime}/webhooks`, reference),
      );
    });
  });
});
