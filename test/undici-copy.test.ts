/**
 * One copy of undici in a merchant's install: the SDK bundles the part of undici it uses (the
 * Agent, and the ProxyAgent for a proxy) from the exact version it pins, and depends on no undici
 * at run time. A second copy (a runtime dependency beside the bundle, or a built file that loads
 * `undici` from node_modules) would bring back two undicis, one of them patched only on rebuild.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const dist = new URL('dist/', root);
const files = readdirSync(dist).filter((name) => /\.(c?js|d\.c?ts)$/.test(name));
const text = (name: string) => readFileSync(new URL(name, dist), 'utf8');
// An import of the package `undici` (or a file of it) left for Node to resolve at run time.
const loadsUndici = /(?:require\(|from\s*|import\(\s*)["']undici(?:\/[^"']*)?["']/;

describe('one copy of undici in an install', () => {
  it('the package depends on no undici at run time', () => {
    for (const field of [pkg.dependencies, pkg.peerDependencies, pkg.optionalDependencies])
      expect(Object.keys(field ?? {})).not.toContain('undici');
  });

  it('no built file (code or types) loads undici from node_modules', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((name) => loadsUndici.test(text(name)))).toEqual([]);
  });

  it('the bundled part is the pinned, exact undici version, and only the Agent and proxy files carry it', () => {
    const pinned = pkg.devDependencies['undici'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const carriers = files.filter((name) => text(name).includes('Bundles part of undici'));
    expect(carriers.sort()).toEqual([
      'undici-agent.cjs',
      'undici-agent.js',
      'undici-proxy.cjs',
      'undici-proxy.js',
    ]);
    for (const name of carriers) expect(text(name)).toContain(`Bundles part of undici ${pinned} `);
  });
});
