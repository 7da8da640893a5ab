// Long form of the load proof (npm run test:stress): the default pool (64 per origin); the short
// form, load.test.ts, proves an explicit maxConnections is honoured.
import { loadSuite } from './helpers/load-suite.js';

loadSuite('load (stress)', { calls: 50_000, concurrency: 256, maxConnections: 64, heapBudget: 2 * 2 ** 20 });
