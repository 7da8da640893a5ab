// Long form of the load proof (npm run test:stress); the short form is load.test.ts.
import { loadSuite } from './helpers/load-suite.js';

loadSuite('load (stress, maxConnections 32)', {
  calls: 50_000,
  concurrency: 256,
  maxConnections: 32,
  heapBudget: 2 * 2 ** 20,
});
loadSuite('load (stress, default pool)', {
  calls: 50_000,
  concurrency: 256,
  maxConnections: 64,
  heapBudget: 2 * 2 ** 20,
});
