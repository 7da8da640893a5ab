import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

import { shared as base } from './vitest.config.js';

// The proof stage's tests that drive a system package for real (`*.system.ts`): Debian's
// redis-server (test/redis/server.ts) and Chromium (test/helpers/chromium.ts). `.ci/run` installs
// both; `npm test` never needs them. Same aliases and reporters as npm test; the CLI's build too,
// for its own system tests.
const config: UserConfig = defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.system.ts', 'packages/*/test/**/*.system.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/helpers/fresh-build.ts', 'packages/cli/test/helpers/fresh-build.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default config;
