import { defineConfig, type ViteUserConfig as UserConfig } from 'vitest/config';

import { shared as base } from './vitest.config.js';

// The proofs on the packed tarball (test/proofs/*.proof.ts, `npm run test:proofs`): fresh projects,
// bundlers, Next.js, workerd, Bun, Deno and Chromium, from the proof install (test/proofs/package.json).
// One file at a time: each builds or bundles, and the machine has two cores.
const config: UserConfig = defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/proofs/**/*.proof.ts'],
    exclude: ['**/node_modules/**'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});

export default config;
