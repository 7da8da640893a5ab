import type { Reporter } from 'vitest/node';
import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

import { msw3Projects } from './test/msw/msw3.js';

// A plain closing line ("vitest: N passed, N failed") that CI reads as the run's test count.
const summary: Reporter = {
  onTestRunEnd(modules, unhandledErrors) {
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const module of modules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') failedHere++;
        else counts.skipped++;
      }
      // A file whose hooks or imports failed counts once even when no single test did.
      counts.failed += failedHere || (module.state() === 'failed' ? 1 : 0);
    }
    console.log(`\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  },
};

/** What every config of this repository shares (stress, system and proofs spread it). */
export const shared: UserConfig = defineConfig({
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
      {
        find: /^@wallet\/node\/workspace$/,
        replacement: new URL('./src/workspace.ts', import.meta.url).pathname,
      },
      {
        find: /^@wallet\/node\/schemas$/,
        replacement: new URL('./src/schemas/index.ts', import.meta.url).pathname,
      },
      { find: /^@wallet\/node$/, replacement: new URL('./src/index.ts', import.meta.url).pathname },
    ],
  },
  test: {
    reporters: ['default', summary],
    // Builds dist/ once when it is older than the source (npm test has just built it: no work).
    globalSetup: ['test/helpers/fresh-build.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The CI machine has two cores; suites with loopback servers behave better without oversubscription.
    maxWorkers: 2,
  },
});

// npm test: every unit test, and the MSW tests again under msw 3 where it runs (see test/msw/msw3.ts).
const config: UserConfig = defineConfig({
  ...shared,
  test: {
    ...shared.test,
    projects: [{ extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'] } }, ...msw3Projects],
  },
});

export default config;
