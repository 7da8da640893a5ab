/**
 * vitest globalSetup: the tests that run the built package (runtimes, package checks, dist
 * webhooks) see the source as it is now. `npm test` builds just before vitest, so this is a few
 * stat calls there; a developer running one file after an edit gets one build for the whole run
 * instead of a stale `dist/`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { root } from './loaded-modules.js';

const INPUTS = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json'];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

export default function setup(): void {
  const built = join(root, 'dist', 'index.js');
  const source = Math.max(...INPUTS.map((input) => newestChange(join(root, input))));
  if (existsSync(built) && statSync(built).mtimeMs >= source) return;
  console.log('dist/ is older than the source: building once for this run');
  const run = spawnSync(join(root, 'node_modules', '.bin', 'tsup'), { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm run build failed:\n${run.stdout}\n${run.stderr}`);
}
