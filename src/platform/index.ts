/**
 * Node: undici's Agent loaded by the first call, builtins taken when first needed. Other runtimes'
 * builds bind web.ts, bun-deno.ts or browser.ts here instead (`tsup.config.ts`): no module guesses.
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

// From `node:timers` at load, since fake clocks replace the global; not an `import`, which costs ~1 ms.
const nextTurn = process.getBuiltinModule('node:timers').setImmediate;
// Kept once taken: asking Node for it on every webhook verify cost 2% of the verify.
let crypto: NodeCrypto | undefined;

export const platform: Platform = {
  runtime: `node/${process.versions.node}`,
  env: () => process.env,
  async createAgent({ proxy, ...options }: AgentOptions): Promise<OwnDispatcher> {
    if (proxy) {
      // Only with a proxy, instead of the Agent's file; a literal specifier, as below.
      const { createProxyAgent } = await import('./undici-proxy.js');
      const { connect: _, ...rest } = options;
      return createProxyAgent(proxy, rest);
    }
    // A literal specifier, so bundlers follow it (the CommonJS build makes it a require()).
    const { createAgent } = await import('./undici-agent.js');
    return createAgent(options);
  },
  realSetImmediate: (run) => void nextTurn(run),
  diagnostics: (): Diagnostics => process.getBuiltinModule('node:diagnostics_channel'),
  nodeCrypto: (): NodeCrypto => (crypto ??= process.getBuiltinModule('node:crypto')),
  subtle: (): SubtleCrypto => globalThis.crypto.subtle,
  zlib: (): Zlib => process.getBuiltinModule('node:zlib'),
  refusal: undefined,
};

export type { NodeCrypto } from './types.js';
