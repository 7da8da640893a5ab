import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

import { shared as base } from './vitest.config.js';

// The long proofs (test/**/*.stress.ts): same aliases and reporters as npm test, longer timeouts.
const config: UserConfig = defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.stress.ts'],
    // The fresh-machine proof installs and runs the whole suite in a clone: beside the other stress
    // proofs it starves their memory and timing bounds, so it runs alone (`npm run test:fresh-machine`).
    exclude: process.env.WALLET_FRESH_MACHINE ? [] : ['test/fresh-machine.stress.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});

export default config;
