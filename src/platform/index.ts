/**
 * The platform this build runs on. In the sources (and so in the tests) this is Node; each entry of
 * the package is built with its runtime's implementation bound here instead (the `platform` esbuild
 * plugin in `tsup.config.ts`), so every import stays static and no module guesses its runtime.
 */
export { platform } from './node.js';
export type { AgentOptions, Diagnostics, NodeCrypto, Platform, SubtleCrypto, Zlib } from './types.js';
