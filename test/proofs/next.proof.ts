import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { merchantProject, servedSandbox, TEST_KEY } from './harness.js';
import {
  bareEnv,
  DEPENDENCIES,
  exited,
  expectWebhookRoute,
  type NextProcess,
  runNext,
  startNext,
  TSCONFIG,
  WEBHOOK_ROUTE,
} from './next-app.js';
import { repo } from './pack.mjs';
import { proof } from './pending.js';
import { recordFigure } from './timing.js';

// The webhooks guide's route (next-app.ts), once per runtime, and the example file the guide links.
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
  'tsconfig.json': TSCONFIG,
};

describe('a Next.js app on the packed tarball: next build without the variables, next start with them', () => {
  let app: Awaited<ReturnType<typeof merchantProject>>;
  let served: Awaited<ReturnType<typeof servedSandbox>>;
  let server: NextProcess | undefined;
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
      ({ server, base } = await startNext(
        app.dir,
        {
          WALLET_SECRET_KEY: TEST_KEY,
          WALLET_BASE_URL: served.input.baseUrl,
          WALLET_WEBHOOK_SECRET: served.input.webhook.secret,
        },
        '/api/node/charge',
      ));
    });

    const expectWebhookAt = (path: string, reference: string): Promise<void> => {
      expect(build.code, 'next build failed').toBe(0);
      return expectWebhookRoute({ server: server!, base }, served.input.webhook.secret, path, reference);
    };

    proof('the example file the guide links answers a forged webhook 400 and a signed one 200, once', () =>
      expectWebhookAt('/api/example/webhooks', `order_next_example_${Date.now().toString(36)}`),
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
        expectWebhookAt(`/api/${runtime}/webhooks`, reference),
      );
    });
  });
});
