import type { Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

// Each module file an ESM import loads costs about 0.7 ms on its own, so the entries are built to
// load as few as possible: the root is index.js + one chunk it shares with webhooks, webhooks is
// webhooks.js + that chunk, and the schemas, with the part of zod they use, are one file of their
// own, loaded by the first call. Three builds, because entries in one build split their shared code into chunks.
const common: Options = {
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'node',
  shims: true,
  // Several builds write into dist/ at once, so none may empty it: `npm run build` does, first.
  clean: false,
  sourcemap: false,
  external: ['undici', 'zod', 'msw'],
};

// The transport's `import('../schemas/index.js')` becomes an import of the schemas build's own
// file, so the schemas never land in (or split) the entries' chunks.
const lazySchemas: Plugin = {
  name: 'lazy-schemas',
  setup(build) {
    // tsup builds split CommonJS as ESM first, so the format shows only in the output extension.
    const file = `./schemas${build.initialOptions.outExtension?.['.js'] ?? '.js'}`;
    build.onResolve({ filter: /\/schemas\/index\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: file, external: true } : undefined,
    );
  },
};

const config: Options[] = [
  {
    ...common,
    entry: { index: 'src/index.ts', webhooks: 'src/webhooks.ts' },
    dts: { entry: { index: 'src/index.ts', webhooks: 'src/webhooks.ts' } },
    splitting: true,
    esbuildPlugins: [lazySchemas],
  },
  // zod is bundled here, tree-shaken to the parts the schemas use (about 0.2 MB instead of an
  // installed 6 MB package), and still loaded only by the first call.
  {
    ...common,
    entry: { schemas: 'src/schemas/index.ts' },
    splitting: false,
    external: ['undici', 'msw'],
    noExternal: ['zod'],
  },
  {
    ...common,
    entry: { testing: 'src/testing.ts', 'wallet-sandbox': 'src/testing/bin.ts' },
    dts: { entry: { testing: 'src/testing.ts' } },
    splitting: true,
    esbuildPlugins: [lazySchemas],
  },
];

export default config;
