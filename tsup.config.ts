import type { Options } from 'tsup';

const config: Options = {
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks.ts',
    testing: 'src/testing.ts',
    'wallet-sandbox': 'src/testing/bin.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', webhooks: 'src/webhooks.ts', testing: 'src/testing.ts' } },
  target: 'node20',
  platform: 'node',
  // Shared chunks keep zod and undici behind dynamic imports, so the root entry stays cheap to load.
  splitting: true,
  shims: true,
  clean: true,
  sourcemap: false,
  external: ['undici', 'zod', 'msw'],
};

export default config;
