import { readFileSync } from 'node:fs';
import type { Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

// Each module file an ESM import loads costs about 0.7 ms on its own, so each entry loads as few as
// it can: webhooks is one file; the root is index.js plus webhooks.js, which it re-exports; the
// schemas (zod/mini) are one file and undici's Agent another, both loaded by the first call.
// Separate builds, because entries built together split their shared code into extra chunk files.
// The error classes the two entries both need are in both files: they check `instanceof` by
// brand, not by identity, so an error from either file passes either file's checks.
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
  // The CommonJS build loads its lazy files with require(), never import(): an import() from
  // CommonJS sends Node through its ESM loader and the CommonJS export lexer (tens of ms).
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
  },
};

// The output extension of the build a plugin runs in ('.js' or '.cjs').
const extension = (build: Parameters<Plugin['setup']>[0]): string =>
  build.initialOptions.outExtension?.['.js'] ?? '.js';

/**
 * A lazily loaded module (`import('…/schemas/index.js')`) becomes an import of the file its own
 * build writes, so it never lands in (or splits) the entries' files.
 */
function lazyFile(name: string, filter: RegExp): Plugin {
  return {
    name: `lazy-${name}`,
    setup(build) {
      const file = `./${name}${extension(build)}`;
      build.onResolve({ filter }, (args) =>
        args.kind === 'dynamic-import' ? { path: file, external: true } : undefined,
      );
    },
  };
}
const lazySchemas = lazyFile('schemas', /\/schemas\/index\.js$/);
const lazyAgent = lazyFile('undici-agent', /\/undici-agent\.js$/);
const lazyProxy = lazyFile('undici-proxy', /\/undici-proxy\.js$/);

/** The root re-exports its runtime's webhooks file rather than bundling its own copy of that code. */
function webhooksEntry(suffix: string): Plugin {
  return {
    name: 'webhooks-entry',
    setup(build) {
      const file = `./webhooks${suffix}${extension(build)}`;
      build.onResolve({ filter: /^\.\/webhooks\.js$/ }, (args) =>
        args.importer.endsWith('/src/index.ts') ? { path: file, external: true } : undefined,
      );
    },
  };
}

/**
 * The runtime seam: `src/platform/index.ts` (Node in the sources and tests) is bound to the
 * runtime's implementation, so each entry carries exactly one platform and only its imports.
 */
function platform(name: 'web' | 'bun-deno' | 'browser'): Plugin {
  const file = new URL(`./src/platform/${name}.ts`, import.meta.url).pathname;
  return {
    name: `platform-${name}`,
    setup(build) {
      build.onResolve({ filter: /\/platform\/index\.js$/ }, () => ({ path: file }));
    },
  };
}

// What the client's Agent never does, left out of its bundles: HTTP/2 (the client never offers h2;
// this also drops node:http2), FormData bodies (the SDK sends JSON strings; this drops undici's
// fetch body code), SOCKS proxies (the proxy option takes http: and https: proxies only) and query
// objects (the SDK builds its paths). Should any ever be asked for, the stub says so rather than
// failing obscurely. And two builtins the first call would otherwise load for one value each. Kept
// because they pay: the first call (test/bench/cold-start.mjs, CPU vs fetch, one run) is 0.95x ESM
// and 0.85x CommonJS with them, 1.02x and 1.03x without (the limit is 1.0x). node:http, for its
// default maxHeaderSize (Node's 16 KiB, which the SDK's Agent keeps whatever
// --max-http-header-size says) and IncomingMessage (told apart when destroying a node:http response
// given as a request body, which the SDK never gives); node:assert, for undici's invariants.
const STUBS: { filter: RegExp; contents: string }[] = [
  {
    filter: /\/client-h2\.js$/,
    contents: `module.exports = function connectH2() { throw new Error('HTTP/2 is not part of @wallet/node'); };`,
  },
  {
    filter: /\/web\/fetch\/body\.js$/,
    contents: `module.exports = { extractBody() { throw new Error('FormData bodies are not part of @wallet/node'); } };`,
  },
  {
    filter: /\/socks5-proxy-agent(\.js)?$/,
    contents: `module.exports = class Socks5ProxyAgent { constructor() { throw new Error('SOCKS proxies are not part of @wallet/node'); } };`,
  },
  {
    filter: /^node:querystring$/,
    contents: `module.exports = { stringify() { throw new Error('query objects are not part of @wallet/node'); } };`,
  },
  {
    filter: /^node:http$/,
    contents: `module.exports = { maxHeaderSize: 16 * 1024, IncomingMessage: class IncomingMessage {} };`,
  },
  {
    filter: /^node:assert$/,
    contents: `module.exports = function assert(value, message) {
      if (!value) throw Object.assign(new Error(message ?? 'undici: an invariant does not hold'), { code: 'ERR_ASSERTION' });
    };`,
  },
];
const agentStubs: Plugin = {
  name: 'agent-stubs',
  setup(build) {
    STUBS.forEach(({ filter }, i) =>
      build.onResolve({ filter }, () => ({ path: String(i), namespace: 'stub' })),
    );
    build.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({
      contents: STUBS[Number(args.path)]?.contents ?? '',
      loader: 'js',
    }));
  },
};

const undiciLicense = readFileSync(new URL('./node_modules/undici/LICENSE', import.meta.url), 'utf8');
// The pinned undici (devDependencies, an exact version) the bundles are built from, named in them.
const undiciVersion = (
  JSON.parse(readFileSync(new URL('./node_modules/undici/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/**
 * A file of `src/platform/` bundled with the parts of undici it imports. The bundled code requires
 * Node builtins only; the ESM file has no require, so it gets one from process.getBuiltinModule
 * (Node >= 20.16): no import.meta, which a merchant's CommonJS bundle of this file (esbuild
 * --format=cjs) would leave empty.
 */
function undiciBundle(name: 'undici-agent' | 'undici-proxy'): Options {
  return {
    ...common,
    entry: { [name]: `src/platform/${name}.ts` },
    splitting: false,
    shims: false,
    // Less to parse on the first call; undici's code is not what a merchant steps through.
    minify: true,
    external: ['msw'],
    noExternal: [/^undici\/lib\//],
    // Keep `node:` specifiers as undici writes them, so that the stubs below see them.
    removeNodeProtocol: false,
    esbuildPlugins: [agentStubs],
    banner: ({ format }) => ({
      js:
        `/*! Bundles part of undici ${undiciVersion} (https://github.com/nodejs/undici):\n${undiciLicense}*/\n` +
        (format === 'esm'
          ? "const require = (id) => { const m = process.getBuiltinModule(id); if (m === undefined) throw new Error(`Cannot find module '${id}'`); return m; };"
          : ''),
    }),
  };
}

/** One Node build of an entry (ESM and CommonJS). */
const nodeEntries: Options[] = [
  {
    ...common,
    entry: { webhooks: 'src/webhooks.ts' },
    // Declarations of both entries in one pass, so they share their types rather than copy them.
    // Every runtime's build of an entry has the same surface, so all conditions share these.
    dts: { entry: { index: 'src/index.ts', webhooks: 'src/webhooks.ts' } },
    splitting: false,
    // The Node platform names the Agent's files; the webhooks never load them.
    esbuildPlugins: [lazyAgent, lazyProxy],
  },
  {
    ...common,
    entry: { index: 'src/index.ts' },
    splitting: false,
    esbuildPlugins: [lazySchemas, lazyAgent, lazyProxy, webhooksEntry('')],
  },
];

/** The builds of the Fetch runtimes and the browser: ESM only, no `node:` import (bun-deno: node:crypto). */
const otherRuntimes: Options[] = (['web', 'bun-deno', 'browser'] as const).flatMap((name) => [
  {
    ...common,
    format: ['esm'],
    platform: 'neutral',
    target: 'es2022',
    shims: false,
    entry: { [`webhooks.${name}`]: 'src/webhooks.ts' },
    splitting: false,
    esbuildPlugins: [platform(name)],
  },
  {
    ...common,
    format: ['esm'],
    platform: 'neutral',
    target: 'es2022',
    shims: false,
    entry: { [`index.${name}`]: 'src/index.ts' },
    splitting: false,
    esbuildPlugins: [platform(name), lazySchemas, webhooksEntry(`.${name}`)],
  },
]);

const config: Options[] = [
  ...nodeEntries,
  ...otherRuntimes,
  // zod/mini, bundled here (tree-shaken: zod is not a runtime dependency) and loaded by the first
  // call. Runtime-neutral, so every runtime's root entry shares it. Also the internal subpath
  // `@wallet/node/schemas`, with types, so that @wallet/agent-toolkit derives its tools' JSON
  // Schemas from these very schemas (one source for shapes); not for merchants.
  {
    ...common,
    entry: { schemas: 'src/schemas/index.ts' },
    dts: { entry: { schemas: 'src/schemas/index.ts' } },
    splitting: false,
    // Less to parse on the first call (the SDK's own code, in index.js, stays readable).
    minify: true,
    external: ['undici', 'msw'],
    noExternal: ['zod'],
  },
  // Only undici's Agent (about a third of undici's code), loaded by the first call on Node; and
  // only its ProxyAgent, loaded instead when a proxy is used.
  undiciBundle('undici-agent'),
  undiciBundle('undici-proxy'),
  // The internal subpath `@wallet/node/workspace`, with types: what this repository's own packages
  // (@wallet/agent-toolkit, @wallet/cli) share with the SDK rather than copy; not for merchants.
  {
    ...common,
    entry: { workspace: 'src/workspace.ts' },
    dts: { entry: { workspace: 'src/workspace.ts' } },
    splitting: false,
  },
  {
    ...common,
    entry: { testing: 'src/testing.ts', 'wallet-sandbox': 'src/testing/cli/bin.ts' },
    dts: { entry: { testing: 'src/testing.ts' } },
    splitting: true,
    esbuildPlugins: [lazySchemas, lazyAgent, lazyProxy],
  },
];

export default config;
