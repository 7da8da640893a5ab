import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

import base from './vitest.config.js';

// The long proofs (test/**/*.stress.ts): same aliases and reporters as npm test, longer timeouts.
const config: UserConfig = defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.stress.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});

export default config;
