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
  // The sandbox's QR page draws with uqr, bundled into its own chunk behind a dynamic import: the
  // package gains no runtime dependency and nothing loads it until a QR page is drawn.
  noExternal: ['uqr'],
};

export default config;
