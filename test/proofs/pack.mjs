// The packed tarballs, installed the way a merchant installs them: `npm pack` of the SDK (and of a
// workspace package such as packages/cli), then `npm install` of those tarballs into a fresh
// project outside this repository. Plain JavaScript so node's test runner and vitest can both use
// it. Needs `npm run build` first (the SDK's dist/ is what gets packed).
//
//   import { freshProject } from '../../test/proofs/pack.mjs';
//   const app = await freshProject({ workspaces: ['packages/cli'] });
//   // app.dir/node_modules/@wallet/node is the SDK's tarball, @wallet/cli the workspace's
//   await app.remove();
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** This repository's root. */
export const repo = fileURLToPath(new URL('../..', import.meta.url));

let scratch;
const packed = new Map();

function scratchDir() {
  scratch ??= mkdtempSync(join(tmpdir(), 'wallet-packed-'));
  return scratch;
}

/**
 * `npm pack` of the SDK (no argument) or of a workspace (`'packages/cli'`), once per process:
 * the tarball's absolute path. A workspace with a `build` script is built first.
 */
export async function pack(workspace) {
  const key = workspace ?? '.';
  if (!packed.has(key)) packed.set(key, packOnce(workspace));
  return packed.get(key);
}

async function packOnce(workspace) {
  if (!existsSync(join(repo, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const where = workspace ? ['--workspace', workspace] : [];
  if (workspace) {
    const manifest = JSON.parse(readFileSync(join(repo, workspace, 'package.json'), 'utf8'));
    if (manifest.scripts?.build) await run(npm, ['run', 'build', ...where], { cwd: repo });
  }
  const { stdout } = await run(
    npm,
    ['pack', '--json', '--ignore-scripts', '--pack-destination', scratchDir(), ...where],
    { cwd: repo, maxBuffer: 64 * 1024 * 1024 },
  );
  return join(scratchDir(), JSON.parse(stdout)[0].filename);
}

/**
 * A fresh project in a temporary directory with the SDK's tarball installed (and the tarballs of
 * `workspaces`, whose `@wallet/node` dependency is held to that same SDK tarball), plus
 * `dependencies` at the versions given (npm ranges; installed preferring the npm cache that this
 * repository's installs filled) and `files` written beside its package.json.
 *
 * @param {{ name?: string, type?: 'module' | 'commonjs', workspaces?: string[],
 *   dependencies?: Record<string, string>, files?: Record<string, string>,
 *   manifest?: Record<string, unknown> }} [options]
 * @returns {Promise<{ dir: string, tarballs: Record<string, string>, remove: () => void }>}
 */
export async function freshProject(options = {}) {
  const sdk = await pack();
  const tarballs = { '@wallet/node': sdk };
  for (const workspace of options.workspaces ?? []) {
    const manifest = JSON.parse(readFileSync(join(repo, workspace, 'package.json'), 'utf8'));
    tarballs[manifest.name] = await pack(workspace);
  }
  const dir = mkdtempSync(join(tmpdir(), `${options.name ?? 'merchant-app'}-`));
  const dependencies = { ...options.dependencies };
  for (const [name, tarball] of Object.entries(tarballs)) dependencies[name] = `file:${tarball}`;
  const manifest = {
    name: options.name ?? 'merchant-app',
    private: true,
    type: options.type ?? 'module',
    dependencies,
    // The workspaces ask for @wallet/node ^0.4.0: the tarball under test answers, not the registry.
    overrides: { '@wallet/node': '$@wallet/node' },
    ...options.manifest,
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const [name, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  try {
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`npm install in a fresh project failed:\n${error.stderr ?? error}`);
  }
  return { dir, tarballs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Removes this process's tarballs (call once, after the last project is made). */
export function removePacked() {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
  packed.clear();
}

/** The version of a package in the proof install (test/proofs/package.json), for fresh projects. */
export function proofVersion(name) {
  const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
  const version = manifest.devDependencies[name];
  if (!version) throw new Error(`${name} is not in test/proofs/package.json`);
  return version;
}

/** A binary of the proof install; fails clearly when `npm ci --prefix test/proofs` has not run. */
export function proofBin(name) {
  const bin = fileURLToPath(new URL(`./node_modules/.bin/${name}`, import.meta.url));
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run proofs:install\` first`);
  return bin;
}
