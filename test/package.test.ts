import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { VERSION } from '@wallet/node';
import { firstCall, modulesLoadedBy, packagesIn, requireBuild, root } from './helpers/loaded-modules.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
};

describe('importing @wallet/node', () => {
  it('loads neither undici nor the schemas until the first request (ESM)', () => {
    const { modules } = modulesLoadedBy('esm', `await import('@wallet/node');`);
    expect(modules.some((m) => m.includes('/dist/index.js'))).toBe(true);
    expect(modules.some((m) => m.includes('/dist/schemas.'))).toBe(false);
    expect(packagesIn(modules)).toEqual([]);
  });

  it('loads neither undici nor the schemas until the first request (CommonJS)', () => {
    const { modules } = modulesLoadedBy('cjs', `require('@wallet/node');`);
    expect(modules.some((m) => m.endsWith('/dist/index.cjs'))).toBe(true);
    expect(modules.some((m) => m.includes('/dist/schemas.'))).toBe(false);
    expect(packagesIn(modules)).toEqual([]);
  });

  it('loads undici and the schemas on the first request, which then works (ESM)', () => {
    const { modules, stdout } = modulesLoadedBy(
      'esm',
      `const { Wallet } = await import('@wallet/node');${firstCall}`,
    );
    expect(stdout.trim()).toBe('FAILED');
    // undici's Agent is bundled into its own file: the first call loads it and no package (not the
    // whole of undici). zod, bundled into the schemas file, loads beside it to check the call.
    expect(modules.some((m) => m.endsWith('/dist/undici-agent.js'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/dist/schemas.js'))).toBe(true);
    expect(packagesIn(modules)).toEqual([]);
  });

  it('works from CommonJS on the first request too, loading its lazy files with require()', () => {
    const { modules, stdout } = modulesLoadedBy(
      'cjs',
      `(async () => { const { Wallet } = require('@wallet/node');${firstCall} })();`,
    );
    expect(stdout.trim()).toBe('FAILED');
    // In require.cache, so loaded by require(): an import() would have gone through the ESM loader.
    expect(modules.some((m) => m.endsWith('/dist/undici-agent.cjs'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/dist/schemas.cjs'))).toBe(true);
    expect(packagesIn(modules)).toEqual([]);
  });

  // The schemas file (zod/mini), loaded to word a refusal: by require() in CommonJS.
  const refused = `const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:9' });
    try { await wallet.charges.verify('  '); } catch (error) { console.log(error.name + ': ' + error.message); }`;

  it.each([
    ['esm', `const { Wallet } = await import('@wallet/node'); ${refused}`, '/dist/schemas.js'],
    [
      'cjs',
      `(async () => { const { Wallet } = require('@wallet/node'); ${refused} })();`,
      '/dist/schemas.cjs',
    ],
  ] as const)('loads the schemas to word a refused value (%s)', (format, code, file) => {
    const { modules, stdout } = modulesLoadedBy(format, code);
    expect(stdout).toMatch(/^ValidationError: .*reference: must not be empty/);
    expect(modules.some((m) => m.endsWith(file))).toBe(true);
    expect(packagesIn(modules)).toEqual([]);
  });
});

describe('the package surface', () => {
  it('offers the same named exports from ESM and CommonJS', async () => {
    requireBuild();
    const require = createRequire(import.meta.url);
    for (const entry of ['', '/webhooks', '/testing']) {
      const esm = Object.keys(
        (await import(`../dist/${entry ? entry.slice(1) : 'index'}.js`)) as object,
      ).sort();
      const cjs = Object.keys(require(`../dist/${entry ? entry.slice(1) : 'index'}.cjs`) as object)
        .filter((k) => k !== '__esModule')
        .sort();
      expect(cjs).toEqual(esm);
    }
  });

  it('closes internals: only the three entries, the two internal subpaths and package.json are importable', () => {
    // ./schemas exists for @wallet/agent-toolkit (its tools' JSON Schemas), ./workspace for the
    // workspace packages (the Redis adapter, the sandbox's webhook body): neither for merchants.
    expect(Object.keys(pkg.exports).sort()).toEqual([
      '.',
      './package.json',
      './schemas',
      './testing',
      './webhooks',
      './workspace',
    ]);
    const probe = (spec: string) =>
      modulesLoadedBy(
        'cjs',
        `try { require(${JSON.stringify(spec)}); console.log('open') } catch (e) { console.log(e.code) }`,
      ).stdout.trim();
    expect(probe('@wallet/node/dist/client.js')).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(probe('@wallet/node/src/core/transport')).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(probe('@wallet/node/webhooks')).toBe('open');
  });

  it('ships type declarations for import and require of each entry', () => {
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (entry === './package.json') continue;
      const { import: esm, require: cjs } = target as Record<string, { types: string; default: string }>;
      for (const file of [esm!.types, esm!.default, cjs!.types, cjs!.default]) {
        expect(() => readFileSync(new URL(file, `file://${root}/`))).not.toThrow();
      }
    }
  });

  it('has no runtime dependency (the pinned part of undici and zod are bundled: test/undici-copy.test.ts)', () => {
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
  });

  it('reports the package version in VERSION and the User-Agent', () => {
    expect(VERSION).toBe(pkg.version);
  });
});

describe('on Fetch runtimes (the workerd condition)', () => {
  it.each(['@wallet/node', '@wallet/node/webhooks'])(
    'importing %s loads no node: builtin and no dependency',
    (entry) => {
      const { modules } = modulesLoadedBy('esm', `await import('${entry}');`, ['workerd']);
      expect(modules.some((m) => /\/dist\/(index|webhooks)\.web\.js$/.test(m))).toBe(true);
      expect(modules.filter((m) => m.startsWith('node:'))).toEqual([]);
      expect(packagesIn(modules)).toEqual([]);
    },
  );
});
