import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { root } from '../helpers/loaded-modules.js';
import { consumerApp, expectMerchantFlow, expectWebhooks, servedSandbox } from './harness.js';
import type { ScenarioReport, WebhookReport } from './report.js';

// No nodejs_compat flag anywhere: the Worker gets only what workerd itself provides. Miniflare's
// outbound network allows private addresses, so the Worker reaches the sandbox on 127.0.0.1.
const COMPATIBILITY_DATE = '2026-04-01';

async function inWorkerd<T>(modules: { path: string; contents: string }[], body?: unknown): Promise<T> {
  const mf = new Miniflare({
    modules: modules.map((m) => ({ type: 'ESModule' as const, ...m })),
    modulesRoot: root,
    compatibilityDate: COMPATIBILITY_DATE,
  });
  try {
    const response = await mf.dispatchFetch('http://worker.test/', {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as T;
  } finally {
    await mf.dispose();
  }
}

/**
 * Bundles a Worker with wrangler's esbuild settings for a Worker without nodejs_compat: no Node
 * platform, the workerd/worker/browser export conditions, and any node: import a build error.
 */
async function bundleWorker(
  dir: string,
  entry: string,
): Promise<{ path: string; contents: string; packages: string[] }> {
  const result = await build({
    absWorkingDir: dir,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  const packages = Object.keys(result.metafile.inputs).flatMap(
    (input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? [],
  );
  return {
    path: join(root, 'worker.js'),
    contents: result.outputFiles[0]!.text,
    packages: [...new Set(packages)].sort(),
  };
}

describe('the built package in workerd (Cloudflare Workers), without nodejs_compat', () => {
  const app = consumerApp();
  let served: Awaited<ReturnType<typeof servedSandbox>>;
  beforeAll(async () => void (served = await servedSandbox()));
  afterAll(async () => {
    await served.close();
    app.remove();
  });

  it('loads the root and ./webhooks entries, as built, with no node: builtin or dependency at the top level', async () => {
    // Only dist/ is given to workerd: a top-level import of a builtin (`node:crypto`, or `crypto`
    // once the bundler strips the prefix), of undici or of zod would stop the Worker from starting.
    // The Web build, which the workerd condition picks; the schemas file is what its first call loads.
    const dist = readdirSync(join(root, 'dist')).filter((f) =>
      /^((index|webhooks)\.web|schemas)\.js$/.test(f),
    );
    const modules = [
      {
        path: join(root, 'worker.js'),
        contents: `import * as walletRoot from './dist/index.web.js';
          import * as walletWebhooks from './dist/webhooks.web.js';
          export default { fetch: () => Response.json({ root: Object.keys(walletRoot), webhooks: Object.keys(walletWebhooks) }) };`,
      },
      ...dist.map((f) => ({
        path: join(root, 'dist', f),
        contents: readFileSync(join(root, 'dist', f), 'utf8'),
      })),
    ];
    const loaded = await inWorkerd<{ root: string[]; webhooks: string[] }>(modules);
    expect(loaded.root).toEqual(
      expect.arrayContaining(['Wallet', 'verifyWebhookAsync', 'UnprocessableEntityError']),
    );
    expect(loaded.webhooks).toEqual(expect.arrayContaining(['verifyWebhookAsync', 'createWebhookHandler']));
  });

  it('a webhook-only Worker bundles without undici or zod, verifies a signed delivery and refuses a forged one', async () => {
    const worker = await bundleWorker(app.dir, 'webhook-worker.ts');
    // @wallet/node resolves through the project's symlink to this repository, so any package
    // listed here would be one of its dependencies.
    expect(worker.packages).toEqual([]);
    const webhooks = await inWorkerd<WebhookReport>([worker], served.input);
    expectWebhooks(
      { runtime: 'workerd', flow: { ok: true, value: null! }, webhooks: { ok: true, value: webhooks } },
      served.input,
      'unavailable',
    );
  });

  it('a Worker calling the API bundles and runs resolve → dispatch → verify → refund against the loopback sandbox', async () => {
    const worker = await bundleWorker(app.dir, 'worker.ts');
    const report = await inWorkerd<ScenarioReport>([worker], served.input);
    expectMerchantFlow(report, served.sandbox, served.input);
    expectWebhooks(report, served.input, 'unavailable');
  });
});
