// Short form of the fault campaign; the long form is faults.stress.ts.
import { faultSuite } from './helpers/fault-suite.js';

faultSuite('faults (short)', { calls: 300, concurrency: 100, seed: 7, timeout: 1_000, maxRetries: 1 });
