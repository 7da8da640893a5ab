import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from 'vitest';

import { expectMerchantFlow, expectWebhooks, merchantProject, servedSandbox } from './harness.js';
import type { ScenarioReport, WebhookReport } from './scenario/report.js';
import { proof } from './pending.js';
import { recordFigure } from './timing.js';
import { COMPATIBILITY_DATE, wranglerBundle } from './wrangler.js';

// No nodejs_compat flag anywhere: the Worker gets only what workerd itself provides. Miniflare's
// outbound network allows private addresses, so the Worker reaches the sandbox on 127.0.0.1.
const WRANGLER_TOML = `name = "merchant-worker"
main = "worker.ts"
compatibility_date = "${COMPATIBILITY_DATE}"
`;

/** Runs a Worker from `scriptPath` as a merchant configures Miniflare: no module list. */
async function inMiniflare<T>(dir: string, scriptPath: string, body: unknown): Promise<T> {
  const mf = new Miniflare({
    scriptPath,
    modules: true,
    modulesRules: [{ type: 'ESModule', include: ['**/*.js'] }],
    modulesRoot: dir,
    compatibilityDate: COMPATIBILITY_DATE,
  });
  try {
    const response = await mf.dispatchFetch('http://worker.test/', {
      method: 'POST',
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  } finally {
    await mf.dispose();
  }
}

/** Node builtins a bundle still imports (`node:x` or a bare builtin name), by its import statements. */
function builtinImports(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)];
  return specifiers.map((m) => m[1]!).filter((s) => s.startsWith('node:') || isBuiltin(s));
}

/**
 * The merchant's own files compiled to JavaScript beside their package.json, with `@wallet/node`
 * left unbundled: the import points at the file the package's exports map gives for the `workerd`
 * condition (resolved by esbuild, as wrangler resolves it). Miniflare's module locator resolves only
 * relative specifiers, so this is the one rewrite; everything inside the package it walks itself.
 */
async function compileUnbundled(dir: string, entry: string): Promise<string> {
  const outfile = join(dir, entry.replace(/\.ts$/, '.unbundled.js'));
  const keepPackageOutside: Plugin = {
    name: 'wallet-unbundled',
    setup(b) {
      b.onResolve({ filter: /^@wallet\/node(\/|$)/ }, async (args) => {
        if (args.pluginData === 'inner') return undefined;
        const resolved = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: 'inner',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: `./${relative(dir, resolved.path)}`, external: true };
      });
    },
  };
  await build({
    absWorkingDir: dir,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker'],
    plugins: [keepPackageOutside],
    logLevel: 'silent',
  });
  return outfile;
}

describe('the packed tarball in workerd (Cloudflare Workers), without nodejs_compat', () => {
  let app: Awaited<ReturnType<typeof merchantProject>>;
  let served: Awaited<ReturnType<typeof servedSandbox>>;
  beforeAll(async () => void (app = await merchantProject({ 'wrangler.toml': WRANGLER_TOML })));
  afterAll(() => app?.remove());
  // A fresh sandbox and reference per Worker: each run's requests are judged one by one.
  beforeEach(async () => void (served = await servedSandbox()));
  afterEach(() => served.close());

  proof(
    'wrangler deploy --dry-run bundles the API Worker with no undici and no Node builtin, and it runs the whole flow',
    async () => {
      const bundle = await wranglerBundle(app.dir, 'worker.ts', 'out');
      recordFigure('wrangler bundle of the API Worker (worker.js)', `${bundle.bytes} bytes`);
      expect(bundle.packages).toEqual(['@wallet/node']);
      expect(bundle.externals.filter((s) => s.startsWith('node:') || isBuiltin(s))).toEqual([]);
      expect(builtinImports(bundle.text)).toEqual([]);
      expect(bundle.text).not.toMatch(/node_modules\/undici/);

      const report = await inMiniflare<ScenarioReport>(app.dir, bundle.path, served.input);
      expectMerchantFlow(report, served.sandbox, served.input);
      expectWebhooks(report, served.input, 'unavailable');
    },
  );

  proof(
    'wrangler bundles a webhook-only Worker from @wallet/node/webhooks alone, and it verifies and refuses',
    async () => {
      const bundle = await wranglerBundle(app.dir, 'webhook-worker.ts', 'out-hooks');
      recordFigure('wrangler bundle of the webhook-only Worker', `${bundle.bytes} bytes`);
      expect(bundle.packages).toEqual(['@wallet/node']);
      expect(builtinImports(bundle.text)).toEqual([]);
      const webhooks = await inMiniflare<WebhookReport>(app.dir, bundle.path, served.input);
      expectWebhooks(
        { runtime: 'workerd', flow: { ok: true, value: null! }, webhooks: { ok: true, value: webhooks } },
        served.input,
        'unavailable',
      );
    },
  );

  proof(
    'Miniflare with scriptPath runs the package unbundled through its workerd condition: the whole flow',
    async () => {
      const scriptPath = await compileUnbundled(app.dir, 'worker.ts');
      const source = readFileSync(scriptPath, 'utf8');
      // The package stays outside the Worker's own file, as its own modules.
      expect(source).toMatch(/from\s*["']\.\/node_modules\/@wallet\/node\//);
      const report = await inMiniflare<ScenarioReport>(app.dir, scriptPath, served.input);
      expectMerchantFlow(report, served.sandbox, served.input);
      expectWebhooks(report, served.input, 'unavailable');
    },
  );
});
