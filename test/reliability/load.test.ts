// Short form of the load proof; the long form (50,000 verifies) is load.stress.ts.
import { loadSuite } from './helpers/load-suite.js';

loadSuite('load (short)', { calls: 1_500, concurrency: 256, maxConnections: 16, heapBudget: 4 * 2 ** 20 });
