import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

// The tests run the built `wallet` bin as a subprocess against the built `wallet-sandbox`:
// globalSetup builds both once when stale.
const config: UserConfig = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/fresh-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
  },
});

export default config;
