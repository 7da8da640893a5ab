/**
 * vitest globalSetup: the tests run the built bins, so both are built from the source as it is
 * now: the SDK's dist/ (with `wallet-sandbox`) by the root's own check, then this package's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import buildSdk from '../../../../test/helpers/fresh-build.js';

const cli = new URL('../..', import.meta.url).pathname;

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export default function setup(): void {
  buildSdk();
  const built = join(cli, 'dist', 'bin.js');
  const source = Math.max(newest(join(cli, 'src')), newest(join(cli, 'package.json')));
  if (existsSync(built) && statSync(built).mtimeMs >= source) return;
  const run = spawnSync(join(cli, '..', '..', 'node_modules', '.bin', 'tsup'), {
    cwd: cli,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`building @wallet/cli failed:\n${run.stdout}\n${run.stderr}`);
}
