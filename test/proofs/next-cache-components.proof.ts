import { afterAll, beforeAll, describe, expect } from 'vitest';

import { merchantProject, servedSandbox } from './harness.js';
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
import { proof } from './pending.js';
import { recordFigure } from './timing.js';

// Next 16's default template turns `cacheComponents` on. The webhooks guide says its route, as
// written (Node.js runtime, the default), works there, and that the Edge runtime line is refused.
const NEXT_CONFIG = 'export default { cacheComponents: true };\n';
const ROUTE = 'app/api/webhooks/wallet/route.ts';

type Built = { app: Awaited<ReturnType<typeof merchantProject>>; code: number | null; output: string };

async function build(route: string, name: string): Promise<Built> {
  const app = await merchantProject(
    { [ROUTE]: route, 'next.config.mjs': NEXT_CONFIG, 'tsconfig.json': TSCONFIG },
    DEPENDENCIES,
    name,
  );
  const started = Date.now();
  const child = runNext(app.dir, ['build'], bareEnv());
  const code = await exited(child);
  recordFigure(
    `next build with cacheComponents (${name})`,
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { app, code, output: child.output() };
}

describe('a Next 16 app with cacheComponents: true, on the packed tarball', () => {
  let node: Built | undefined;
  let edge: Built | undefined;
  let served: Awaited<ReturnType<typeof servedSandbox>> | undefined;
  let next: { server: NextProcess; base: string } | undefined;

  beforeAll(async () => {
    node = await build(WEBHOOK_ROUTE, 'next-cache-components-node');
    edge = await build(`${WEBHOOK_ROUTE}\nexport const runtime = 'edge';\n`, 'next-cache-components-edge');
  });
  afterAll(async () => {
    if (next && next.server.exitCode === null) {
      next.server.kill('SIGTERM');
      await exited(next.server);
    }
    await served?.close();
    node?.app.remove();
    edge?.app.remove();
  });

  proof(
    'the guide’s route as written builds, and next start answers a forged webhook 400 and a signed one 200',
    async () => {
      expect(node?.code, node?.output).toBe(0);
      served = await servedSandbox();
      const secret = served.input.webhook.secret;
      next = await startNext(node!.app.dir, { WALLET_WEBHOOK_SECRET: secret }, '/api/webhooks/wallet');
      await expectWebhookRoute(
        next,
        secret,
        '/api/webhooks/wallet',
        `order_next_cc_${Date.now().toString(36)}`,
      );
    },
  );

  proof(
    "with the guide’s `export const runtime = 'edge'` line, next build fails naming runtime and cacheComponents",
    () => {
      expect(edge?.code, edge?.output).not.toBe(0);
      expect(edge?.output).toMatch(/runtime/);
      expect(edge?.output).toMatch(/cacheComponents/);
      console.log(edge?.output);
    },
  );
});
