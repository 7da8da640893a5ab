import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

const config: UserConfig = defineConfig({
  resolve: {
    alias: [
      {
        find: /^@wallet\/node\/webhooks$/,
        replacement: new URL('./src/webhooks.ts', import.meta.url).pathname,
      },
      {
        find: /^@wallet\/node\/testing$/,
        replacement: new URL('./src/testing.ts', import.meta.url).pathname,
      },
      { find: /^@wallet\/node$/, replacement: new URL('./src/index.ts', import.meta.url).pathname },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The CI machine has two cores; suites with loopback servers behave better without oversubscription.
    maxWorkers: 2,
  },
});

export default config;
