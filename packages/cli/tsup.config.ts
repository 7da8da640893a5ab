import type { Options } from 'tsup';

// One ESM file for the bin; its dependencies (the SDK, commander, csv-parse, csv-stringify,
// picocolors) stay imports, installed beside it.
const config: Options = {
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: false,
  dts: false,
};

export default config;
