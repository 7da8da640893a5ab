import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

import base from './vitest.config.js';

// The long runs (test/**/*.stress.ts): a storm's full Retry-After, a resume of 300k rows.
const config: UserConfig = defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.stress.ts'],
    testTimeout: 900_000,
    hookTimeout: 300_000,
  },
});

export default config;
