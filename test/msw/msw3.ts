/**
 * The MSW tests run twice in `npm test`: under msw 2 (`msw`) and under msw 3 (the `msw3` alias
 * in devDependencies), so the guide's snippets are proved on both majors. Under msw 3 the test
 * files import msw 3 (an alias), `sandbox.handlers` loads msw 3 (a resolve hook, see
 * msw3-setup.ts), and the one line a merchant writes differently is written msw 3's way.
 */
import module from 'node:module';
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * msw 3 renamed `listen()`'s `onUnhandledRequest` to `onUnhandledFrame` and ignores the old name
 * (it warns and lets the request through). The one line a merchant changes when upgrading.
 */
export function asMsw3(source: string): string {
  return source.replaceAll('listen({ onUnhandledRequest:', 'listen({ onUnhandledFrame:');
}

/** The major of the `msw` a test file (and `sandbox.handlers`) sees: 2, or 3 in the msw 3 run. */
export function mswMajor(): number {
  const { version } = module.createRequire(import.meta.url)('msw/package.json') as { version: string };
  return Number(version.split('.')[0]);
}

/**
 * The msw 3 run, where it applies: msw 3 needs Node >= 22.12, and the resolve hook that hands it
 * to `sandbox.handlers` needs `module.registerHooks` (Node >= 22.15). Elsewhere it is not
 * registered, so nothing is skipped.
 */
export const msw3Projects: TestProjectInlineConfiguration[] =
  'registerHooks' in module
    ? [
        {
          extends: true,
          resolve: { alias: [{ find: /^msw(\/.*)?$/, replacement: 'msw3$1' }] },
          plugins: [
            {
              name: 'msw3-spelling',
              enforce: 'pre',
              transform: (code: string, id: string) =>
                /\/test\/msw\/[^/]+\.test\.ts$/.test(id) ? asMsw3(code) : undefined,
            },
          ],
          test: {
            name: 'msw 3',
            include: ['test/msw/**/*.test.ts'],
            // Its subject is a project without msw: which msw is installed here changes nothing.
            exclude: ['test/msw/testing-types.test.ts'],
            setupFiles: ['test/msw/msw3-setup.ts'],
          },
        },
      ]
    : [];
