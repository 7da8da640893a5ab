import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

const HOOK = `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  process.stderr.write('LOADED ' + result.url + '\\n');
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
  requireBuild();
  const flags = conditions.map((c) => `--conditions=${c}`);
  const args =
    format === 'esm'
      ? [
          ...flags,
          '--import',
          `data:text/javascript,${encodeURIComponent(REGISTER)}`,
          '--input-type=module',
          '-e',
          code,
        ]
      : [...flags, '-e', code + LIST_CJS];
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0) throw new Error(`child exited ${run.status}: ${run.stderr}`);
  const modules = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));
  return { modules, stdout: run.stdout };
}

/** The npm packages among loaded module paths, for example `['undici', 'zod']`. */
export function packagesIn(modules: string[]): string[] {
  const names = modules.flatMap((m) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m)?.[1] ?? []);
  return [...new Set(names)].sort();
}
