import type { Options } from 'tsup';

// ESM, Node only (an MCP server and agent backends). Dependencies and peers stay external, so the
// AI SDK and redis load only where used (the ./ai entry, the bin with WALLET_MCP_REDIS_URL).
const config: Options = {
  entry: { index: 'src/index.ts', ai: 'src/hosts/ai.ts', 'mcp-bin': 'src/hosts/mcp-bin.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  clean: false,
  sourcemap: false,
  // Declarations resolve @wallet/node through the installed package, not the SDK's sources.
  dts: { entry: { index: 'src/index.ts', ai: 'src/hosts/ai.ts' }, compilerOptions: { paths: {} } },
};

export default config;
