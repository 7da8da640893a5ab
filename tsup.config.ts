import { readFileSync } from 'node:fs';
import type { Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

// Each file an ESM import loads costs about 0.7 ms, so each entry is one file, built on its own
// (entries built together split their shared code into chunks). Error classes in both entries
// check `instanceof` by brand, so either file's errors pass either file's checks.
const common: Options = {
  format: ['esm', 'cjs'],
  target: 'node20',
  platform: 'node',
  splitting: false,
  clean: false, // several builds write into dist/ at once: `npm run build` empties it first
  external: ['undici', 'zod', 'msw'],
  noExternal: ['uqr'], // the sandbox's QR page, bundled behind a dynamic import
  // CommonJS loads lazy files with require(): import() from CommonJS costs Node's ESM loader.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
  },
};
const node = (entry: Record<string, string>, more: Options = {}): Options => ({ ...common, entry, ...more });
const plugin = (name: string, setup: Plugin['setup']): Plugin => ({ name, setup });

// What an entry's imports become. A lazily loaded module (`import('./undici-agent.js')`) is the
// file its own build writes, never bundled. The root's `./webhooks.js` is its runtime's webhooks
// file, not a copy. The runtime seam, `src/platform/index.ts` (Node), is the runtime's own file.
const files = (runtime?: string, webhooks = false): Plugin =>
  plugin('files', (build) => {
    const extension = build.initialOptions.outExtension?.['.js'] ?? '.js';
    const to = (name: string) => ({ path: `./${name}${extension}`, external: true });
    build.onResolve({ filter: /\/(schemas\/index|undici-agent|undici-proxy)\.js$/ }, ({ kind, path }) =>
      kind === 'dynamic-import' ? to(path.replace(/.*\/(schemas|undici-\w+).*/, '$1')) : undefined,
    );
    const root = runtime ? `webhooks.${runtime}` : 'webhooks';
    if (webhooks) build.onResolve({ filter: /^\.\/webhooks\.js$/ }, () => to(root));
    if (runtime) {
      const path = new URL(`./src/platform/${runtime}.ts`, import.meta.url).pathname;
      build.onResolve({ filter: /\/platform\/index\.js$/ }, () => ({ path }));
    }
  });

// What the client's Agent never does, stubbed out of its bundles with a message should it be asked:
// HTTP/2, FormData bodies, SOCKS proxies, query objects; and two builtins undici loads for one value
// each (node:http's default maxHeaderSize, node:assert for invariants). They pay: the first call
// (test/bench/cold-start.mjs) is 0.95x / 0.85x of fetch (ESM / CommonJS) with them, 1.02x / 1.03x
// without, over the 1.0x limit; test/first-call-cost.test.ts holds it.
const no = (what: string): string => `{ throw new Error('${what} not part of @wallet/node'); }`;
const STUBS: Record<string, string> = {
  '/client-h2\\.js$': `module.exports = function connectH2() ${no('HTTP/2 is')};`,
  '/web/fetch/body\\.js$': `module.exports = { extractBody() ${no('FormData bodies are')} };`,
  '/socks5-proxy-agent(\\.js)?$': `module.exports = class { constructor() ${no('SOCKS proxies are')} };`,
  '^node:querystring$': `module.exports = { stringify() ${no('query objects are')} };`,
  '^node:http$': 'module.exports = { maxHeaderSize: 16 * 1024, IncomingMessage: class IncomingMessage {} };',
  '^node:assert$': `module.exports = function assert(value, message) { if (!value) throw Object.assign(
    new Error(message ?? 'undici: an invariant does not hold'), { code: 'ERR_ASSERTION' }); };`,
};
const stubs = plugin('agent-stubs', (build) => {
  for (const filter of Object.keys(STUBS))
    build.onResolve({ filter: new RegExp(filter) }, () => ({ path: filter, namespace: 'stub' }));
  build.onLoad({ filter: /.*/, namespace: 'stub' }, (a) => ({ contents: STUBS[a.path] ?? '', loader: 'js' }));
});

const undici = (file: string): string =>
  readFileSync(new URL(`./node_modules/undici/${file}`, import.meta.url), 'utf8');
const { version } = JSON.parse(undici('package.json')) as { version: string };
const NOTICE = `/*! Bundles part of undici ${version} (https://github.com/nodejs/undici):\n${undici('LICENSE')}*/\n`;
const REQUIRE =
  "const require = (id) => { const m = process.getBuiltinModule(id); if (m === undefined) throw new Error(`Cannot find module '${id}'`); return m; };";

/**
 * A platform file bundled with the parts of the pinned undici it imports (Node builtins only). Its
 * ESM file's `require` is process.getBuiltinModule: a merchant's CommonJS bundle empties import.meta.
 */
const undiciBundle = (name: string): Options =>
  node(
    { [name]: `src/platform/${name}.ts` },
    {
      minify: true,
      external: ['msw'],
      noExternal: [/^undici\/lib\//],
      removeNodeProtocol: false, // the stubs match `node:` specifiers
      esbuildPlugins: [stubs],
      banner: ({ format }) => ({ js: NOTICE + (format === 'esm' ? REQUIRE : '') }),
    },
  );

// An entry's build for a Fetch runtime or the browser: ESM only, no `node:` import.
const FETCH_RUNTIME: Options = { format: ['esm'], platform: 'neutral', target: 'es2022' };
const ROOTS = { index: 'src/index.ts', webhooks: 'src/webhooks.ts' };
const SCHEMAS = { schemas: 'src/schemas/index.ts' };
const WORKSPACE = { workspace: 'src/workspace.ts' };
const TESTING = { testing: 'src/testing.ts' };

const config: Options[] = [
  // Declarations of both entries in one pass share their types; every runtime shares them.
  node({ index: 'src/index.ts' }, { esbuildPlugins: [files(undefined, true)], dts: { entry: ROOTS } }),
  node({ webhooks: 'src/webhooks.ts' }, { esbuildPlugins: [files()] }),
  ...['web', 'bun-deno', 'browser'].flatMap((name) => [
    node({ [`webhooks.${name}`]: 'src/webhooks.ts' }, { ...FETCH_RUNTIME, esbuildPlugins: [files(name)] }),
    node({ [`index.${name}`]: 'src/index.ts' }, { ...FETCH_RUNTIME, esbuildPlugins: [files(name, true)] }),
  ]),
  // zod/mini bundled (tree-shaken), shared by every runtime's root; also `@wallet/node/schemas`,
  // from which @wallet/agent-toolkit derives its tools' JSON Schemas (not for merchants).
  node(SCHEMAS, { dts: { entry: SCHEMAS }, minify: true, external: ['undici', 'msw'], noExternal: ['zod'] }),
  // Only undici's Agent, loaded by the first call on Node; only its ProxyAgent, instead, with a proxy.
  undiciBundle('undici-agent'),
  undiciBundle('undici-proxy'),
  // `@wallet/node/workspace`: what this repository's own packages share with the SDK (not for merchants).
  node(WORKSPACE, { dts: { entry: WORKSPACE } }),
  node(
    { testing: 'src/testing.ts', 'wallet-sandbox': 'src/testing/cli/bin.ts' },
    // Shims: only the sandbox reads import.meta.url, which CommonJS lacks; the root's import paid 0.7 ms.
    { dts: { entry: TESTING }, splitting: true, shims: true, esbuildPlugins: [files()] },
  ),
];

export default config;
