// Long form of the fault campaign (npm run test:stress); the short form is faults.test.ts.
import { faultSuite } from './helpers/fault-suite.js';

faultSuite('faults (stress)', {
  calls: 2_400,
  concurrency: 100,
  seed: 20261122,
  timeout: 1_000,
  maxRetries: 2,
});
