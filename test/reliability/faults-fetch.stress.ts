// The fault campaign through the fetch transport (`fetch` option): the same guarantees as the
// undici path (faults.stress.ts).
import { faultSuite } from './helpers/fault-suite.js';

faultSuite(
  'faults (stress, fetch)',
  { calls: 2_000, concurrency: 100, seed: 8, timeout: 1_000, maxRetries: 2 },
  { fetch: (input, init) => globalThis.fetch(input, init) },
);
