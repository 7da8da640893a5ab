import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstCall, modulesLoadedBy, packagesIn, root } from './helpers/loaded-modules.js';

// Each runtime's (or its bundler's) set of conditions, as it asks: the first key of the exports map
// that any of them matches wins, so the key order matters (Node always adds `node` and `import`).
const RUNTIMES: [string, string[], string][] = [
  ['wrangler / Miniflare', ['workerd', 'worker', 'browser'], 'web'],
  ['Next.js Edge', ['edge-light', 'worker', 'browser'], 'web'],
  ['a worker bundler', ['worker', 'browser'], 'web'],
  ['Deno', ['deno'], 'bun-deno'],
  ['Bun', ['bun'], 'bun-deno'],
  ['a browser bundler', ['browser'], 'browser'],
  ['Node', [], ''],
];

describe('each runtime gets its entry by export condition', () => {
  it.each(RUNTIMES)('%s (%j) → the %s build of the root and its webhooks file', (_, conditions, build) => {
    const suffix = build ? `.${build}` : '';
    // The resolve hook reports from its own thread: a moment's wait lets its last lines out.
    const code = `await import('@wallet/node'); await new Promise((r) => setTimeout(r, 100));`;
    const { modules } = modulesLoadedBy('esm', code, conditions);
    const dist = modules.filter((m) => m.includes('/dist/')).map((m) => m.replace(/.*\/dist\//, ''));
    expect(dist.sort()).toEqual([`index${suffix}.js`, `webhooks${suffix}.js`]);
  });

  it('the Web entry sends its first call through fetch: no undici Agent, no node: builtin of its own', () => {
    const { modules, stdout } = modulesLoadedBy(
      'esm',
      `const { Wallet } = await import('@wallet/node');${firstCall}`,
      ['workerd'],
    );
    expect(stdout.trim()).toBe('FAILED');
    expect(modules.filter((m) => m.includes('/dist/')).some((m) => m.includes('undici-agent'))).toBe(false);
    expect(packagesIn(modules)).toEqual([]);
  });

  it('the browser entry refuses to build a client, or to touch a webhook secret, saying why', () => {
    const code = `const { Wallet } = await import('@wallet/node');
      const { verifyWebhookAsync } = await import('@wallet/node/webhooks');
      const seen = [];
      try { new Wallet({ apiKey: 'sk_test_x', baseUrl: 'https://api.example.ng' }); } catch (e) { seen.push([e.name, e.code, e.message]); }
      await verifyWebhookAsync('{}', 'a'.repeat(128), 'whsec').catch((e) => seen.push([e.name, e.code]));
      console.log(JSON.stringify(seen));`;
    const [client, webhook] = JSON.parse(modulesLoadedBy('esm', code, ['browser']).stdout) as string[][];
    expect(client).toEqual([
      'WalletError',
      'browser_refused',
      expect.stringMatching(/must never reach a browser/),
    ]);
    expect(webhook).toEqual(['WalletError', 'browser_refused']);
  });

  it('the browser entry refuses signWebhook its secret as the verifiers do, not pointing at them', () => {
    const code = `const { signWebhook } = await import('@wallet/node/webhooks');
      try { signWebhook({ event: 'charge.success' }, 'whsec'); console.log('[]'); }
      catch (e) { console.log(JSON.stringify([e.name, e.code, e.message])); }`;
    const seen = JSON.parse(modulesLoadedBy('esm', code, ['browser']).stdout) as string[];
    expect(seen).toEqual([
      'WalletError',
      'browser_refused',
      expect.stringMatching(/must never reach a browser/),
    ]);
  });
});

describe('the built files', () => {
  const dist = join(root, 'dist');
  const files = readdirSync(dist).filter((f) => /\.(c?js)$/.test(f));

  it('import nothing through a non-literal specifier', () => {
    for (const file of files) {
      const text = readFileSync(join(dist, file), 'utf8');
      expect(text.match(/\bimport\((?!["'])[^)]*\)/g) ?? [], file).toEqual([]);
    }
  });

  it('CommonJS files never import(): their lazy files are require()d', () => {
    for (const file of files.filter((f) => f.endsWith('.cjs') && !f.startsWith('undici-agent'))) {
      expect(readFileSync(join(dist, file), 'utf8'), file).not.toMatch(/\bimport\(/);
    }
  });

  it('the Web and browser files import no node: builtin and never call process.getBuiltinModule', () => {
    for (const file of files.filter((f) => /\.(web|browser)\.js$/.test(f))) {
      const text = readFileSync(join(dist, file), 'utf8');
      expect(text, file).not.toMatch(/from\s*["'](node:|undici)|getBuiltinModule/);
    }
  });
});

describe('the sources', () => {
  it('probe no globals outside src/platform/: the runtime comes from the entry', () => {
    const hits: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!path.endsWith('/src/platform') && !path.endsWith('/src/testing')) walk(path);
        } else if (path.endsWith('.ts')) {
          const text = readFileSync(path, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
          if (
            /'Bun' in globalThis|getBuiltinModule|globalThis as|\bprocess\.(env|versions)|navigator\./.test(
              text,
            )
          ) {
            hits.push(path.slice(root.length));
          }
        }
      }
    };
    walk(join(root, 'src'));
    expect(hits).toEqual([]);
  });
});
