/**
 * Node: undici's Agent (only its Agent, bundled into `dist/undici-agent.*` and loaded by the first
 * call; with a proxy, only its ProxyAgent, from `dist/undici-proxy.*`), `process.env`, and the
 * builtins reached through `process.getBuiltinModule` when first needed, so importing the package
 * loads no builtin it may not use.
 */
import type {
  AgentOptions,
  Diagnostics,
  NodeCrypto,
  OwnDispatcher,
  Platform,
  SubtleCrypto,
  Zlib,
} from './types.js';

// Taken from `node:timers` when the package loads: test runners' fake clocks replace the global
// (vitest's, jest's), and a faked one would never let an answer through. Not an `import`: in ESM
// that costs about a millisecond of every import of the package, webhooks entry included.
const nextTurn = process.getBuiltinModule('node:timers').setImmediate;

export const platform: Platform = {
  runtime: `node/${process.versions.node}`,
  env: () => process.env,
  async createAgent({ proxy, ...options }: AgentOptions): Promise<OwnDispatcher> {
    if (proxy) {
      // Only with a proxy: undici's ProxyAgent and Pool, bundled into a file of their own (never the
      // whole of undici), loaded instead of the Agent's file; a literal specifier, as below.
      const { createProxyAgent } = await import('./undici-proxy.js');
      const { connect: _, ...rest } = options;
      return createProxyAgent(proxy, rest);
    }
    // A literal specifier: bundlers follow it, and the build keeps it a file of its own (the
    // CommonJS build turns it into a require(), never an import()).
    const { createAgent } = await import('./undici-agent.js');
    return createAgent(options);
  },
  realSetImmediate: (run) => void nextTurn(run),
  diagnostics: (): Diagnostics => process.getBuiltinModule('node:diagnostics_channel'),
  nodeCrypto: (): NodeCrypto => process.getBuiltinModule('node:crypto'),
  subtle: (): SubtleCrypto => globalThis.crypto.subtle,
  zlib: (): Zlib => process.getBuiltinModule('node:zlib'),
  refusal: undefined,
};
