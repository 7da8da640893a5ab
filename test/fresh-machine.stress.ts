import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// A contributor's first hour on a machine with Node and npm alone: a clone of the repository, the
// README's two commands, and no Chromium or redis-server anywhere the commands could find them
// (a PATH of every other program, and the Chromium helper pointed at nothing). `npm test` must
// pass there, and skip nothing.

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'wallet-fresh-machine-'));
const HIDDEN = /^(chromium|chromium-browser|chrome|google-chrome.*|redis-.*)$/;

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** A PATH holding every program of this one except Chromium and redis-server. */
function pathWithout(): string {
  const bin = join(work, 'bin');
  mkdirSync(bin);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (HIDDEN.test(name) || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}

/** This process's environment without vitest's own variables, with `changes` applied. */
function cleanEnv(changes: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(VITEST|TEST$|NODE_ENV$|NODE_OPTIONS$)/.test(name)) env[name] = value;
  }
  return { ...env, ...changes };
}

/** Runs a shell command line in `cwd`; resolves with its exit code and the tail of its output. */
function run(
  line: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (chunk: Buffer): void => {
      out = (out + chunk.toString()).slice(-200_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('a fresh clone on a machine with Node and npm only', () => {
  it('runs the README commands: install, demo, then npm test, which passes and skips nothing', async () => {
    const repo = join(work, 'repo');
    const clone = spawnSync('git', ['clone', '--quiet', root, repo], { encoding: 'utf8' });
    expect(clone.status, clone.stderr).toBe(0);
    const env = cleanEnv({ PATH: pathWithout(), CHROMIUM_PATH: join(work, 'no-chromium') });
    // The environment really lacks them.
    expect((await run('command -v chromium || command -v redis-server', repo, env)).code).not.toBe(0);

    const install = await run('npm install --no-audit --no-fund && npm run demo', repo, env);
    expect(install.code, install.out.slice(-4000)).toBe(0);

    const test = await run('npm test', repo, env);
    expect(test.code, test.out.slice(-6000)).toBe(0);
    const summary = /^vitest: (\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(test.out);
    expect(summary, 'the unit suite prints its closing count').not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(1000);
    expect([summary![2], summary![3]]).toEqual(['0', '0']);
  }, 1_800_000);
});
