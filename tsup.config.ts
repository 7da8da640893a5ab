import type { Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

// Each module file an ESM import loads costs about 0.7 ms on its own, so each entry loads as few as
// it can: webhooks is one file; the root is index.js plus webhooks.js, which it re-exports; the
// schemas, with the part of zod they use, are one file loaded by the first call. Separate builds,
// because entries built together split their shared code into extra chunk files. The error
// classes the two entries both need are in both files: they check `instanceof` by brand, not by
// identity, so an error from either file passes either file's checks.
const common: Options = {
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'node',
  shims: true,
  // Several builds write into dist/ at once, so none may empty it: `npm run build` does, first.
  clean: false,
  sourcemap: false,
  external: ['undici', 'zod', 'msw'],
  // The sandbox's QR page draws with uqr, bundled into its own chunk behind a dynamic import: the
  // package gains no runtime dependency and nothing loads it until a QR page is drawn.
  noExternal: ['uqr'],
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

// The root re-exports the webhooks entry's file rather than bundling its own copy of that code.
const webhooksEntry: Plugin = {
  name: 'webhooks-entry',
  setup(build) {
    const file = `./webhooks${build.initialOptions.outExtension?.['.js'] ?? '.js'}`;
    build.onResolve({ filter: /^\.\/webhooks\.js$/ }, (args) =>
      args.importer.endsWith('/src/index.ts') ? { path: file, external: true } : undefined,
    );
  },
};

const config: Options[] = [
  {
    ...common,
    entry: { webhooks: 'src/webhooks.ts' },
    // Declarations of both entries in one pass, so they share their types rather than copy them.
    dts: { entry: { index: 'src/index.ts', webhooks: 'src/webhooks.ts' } },
    splitting: false,
  },
  {
    ...common,
    entry: { index: 'src/index.ts' },
    splitting: false,
    esbuildPlugins: [lazySchemas, webhooksEntry],
  },
  // zod is bundled here, tree-shaken to the parts the schemas use (about 0.2 MB instead of an
  // installed 6 MB package), and still loaded only by the first call. Also the internal subpath
  // `@wallet/node/schemas`, with types, so that @wallet/agent-toolkit derives its tools' JSON
  // Schemas from these very schemas (one source for shapes); not for merchants.
  {
    ...common,
    entry: { schemas: 'src/schemas/index.ts' },
    dts: { entry: { schemas: 'src/schemas/index.ts' } },
    splitting: false,
    external: ['undici', 'msw'],
    noExternal: ['zod'],
  },
  {
    ...common,
    entry: { testing: 'src/testing.ts', 'wallet-sandbox': 'src/testing/cli/bin.ts' },
    dts: { entry: { testing: 'src/testing.ts' } },
    splitting: true,
    esbuildPlugins: [lazySchemas],
  },
];

export default config;
