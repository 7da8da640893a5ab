import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const root = fileURLToPath(new URL('../..', import.meta.url));

// The hooks run on their own thread: an asynchronous write from there can be lost when the process
// exits right after its last import (the lazily loaded schemas), so each line is written at once.
const HOOK = `import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, 'LOADED ' + result.url + '\\n');
  return result;
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;
const LIST_CJS = `\nprocess.on('exit', () => process.stderr.write(Object.keys(require.cache).map((f) => 'LOADED ' + f).join('\\n')));`;

/** Fails with a useful message when the package has not been built (npm test builds first). */
export function requireBuild(): void {
  if (!existsSync(new URL('../../dist/index.js', import.meta.url))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test builds before the unit tests)');
  }
}

/**
 * Runs `code` in a fresh Node process inside the package, so `@wallet/node` resolves to the built
 * package through its exports map (under the given export `conditions`, for example `workerd`),
 * and returns every module it loaded (`node:` builtins included) and what it printed.
 */
export function modulesLoadedBy(
  format: 'esm' | 'cjs',
  code: string,
  conditions: readonly string[] = [],
): { modules: string[]; stdout: string } {
  const run = spawnSync(process.execPath, childArgs(format, code, conditions), {
    cwd: root,
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (run.status !== 0) throw new Error(`child exited ${run.status}: ${run.stderr}`);
  return { modules: loadedIn(run.stderr), stdout: run.stdout };
}

/**
 * {@link modulesLoadedBy} without blocking this process, so the child can reach servers it runs
 * (a proxy, a service); `env` is added to this process's environment.
 */
export async function modulesLoadedByAsync(
  format: 'esm' | 'cjs',
  code: string,
  env: Record<string, string> = {},
): Promise<{ modules: string[]; stdout: string }> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, childArgs(format, code, []), {
    cwd: root,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, ...env },
  });
  return { modules: loadedIn(stderr), stdout };
}

function childArgs(format: 'esm' | 'cjs', code: string, conditions: readonly string[]): string[] {
  requireBuild();
  const flags = conditions.map((c) => `--conditions=${c}`);
  return format === 'esm'
    ? [
        ...flags,
        '--import',
        `data:text/javascript,${encodeURIComponent(REGISTER)}`,
        '--input-type=module',
        '-e',
        code,
      ]
    : [...flags, '-e', code + LIST_CJS];
}

const loadedIn = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));

/** The npm packages among loaded module paths, for example `['undici', 'zod']`. */
export function packagesIn(modules: string[]): string[] {
  const names = modules.flatMap((m) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m)?.[1] ?? []);
  return [...new Set(names)].sort();
}

/**
 * A script's tail, after `Wallet` is in scope: one `verify` against a loopback server, its status
 * printed. What a cold process loads for its first call is measured by running it.
 */
export const firstCall: string = `
  const http = await import('node:http');
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'success', data: { reference: 'r', amount: 1, currency: 'NGN', status: 'FAILED',
      channel: 'wallet_push', customer: { handle: '@ada', phone: '+234', name: 'Ada' } } }));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:' + server.address().port });
  console.log((await wallet.charges.verify('r')).status);
  await wallet.close();
  server.close();`;
