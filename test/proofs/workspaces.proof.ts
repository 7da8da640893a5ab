import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

import { freshProject, repo } from './pack.mjs';

const run = promisify(execFile);

interface Manifest {
  name: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  main?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
}

// Every workspace package (packages/*) that builds: its own tarball beside the SDK's, as a merchant
// installs both. Each workspace's own behaviour is proved by its tests; here, that what is packed
// installs, resolves the SDK's tarball (not the registry's), loads and has runnable bins.
const workspaces = readdirSync(join(repo, 'packages'))
  .map((dir) => `packages/${dir}`)
  .filter((dir) => existsSync(join(repo, dir, 'package.json')))
  .map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')) as Manifest,
  }));

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((remove) => remove()));

describe.each(workspaces)('$manifest.name from its packed tarball', ({ dir, manifest }) => {
  const buildable = Boolean(manifest.scripts?.['build']);

  it.skipIf(!buildable)('installs beside the SDK tarball, which is the @wallet/node it gets', async () => {
    const app = await freshProject({ name: 'workspace-app', workspaces: [dir] });
    cleanups.push(app.remove);
    const { stdout } = await run('npm', ['ls', '--all', '--json', '@wallet/node'], { cwd: app.dir });
    const tree = JSON.parse(stdout) as {
      dependencies: Record<
        string,
        { version: string; resolved?: string; dependencies?: Record<string, unknown> }
      >;
    };
    expect(tree.dependencies['@wallet/node']?.resolved).toMatch(/^file:/);
    const installed = join(app.dir, 'node_modules', manifest.name);

    // Its main entry loads in Node (ESM), with the SDK's tarball behind it. (Subpaths may need an
    // optional peer, such as the toolkit's ./ai and `ai`: the workspace's own proof installs those.)
    const entries = manifest.exports?.['.'] !== undefined || manifest.main ? ['.'] : [];
    for (const entry of entries) {
      const specifier = entry === '.' ? manifest.name : `${manifest.name}/${entry.slice(2)}`;
      const { stdout: keys } = await run(
        process.execPath,
        ['--input-type=module', '-e', `console.log(Object.keys(await import('${specifier}')).length)`],
        { cwd: app.dir },
      );
      expect(Number(keys), `${specifier} exports something`).toBeGreaterThan(0);
    }

    // Its bins are there, executable, with a node shebang.
    for (const [name, file] of Object.entries(manifest.bin ?? {})) {
      const path = join(installed, file);
      expect(() => accessSync(path, constants.X_OK), `bin ${name} is executable`).not.toThrow();
      expect(readFileSync(path, 'utf8')).toMatch(/^#!\/usr\/bin\/env node/);
      expect(existsSync(join(app.dir, 'node_modules/.bin', name)), `node_modules/.bin/${name}`).toBe(true);
    }
  });
});
