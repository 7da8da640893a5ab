// Full form of the webhook forgery proof (npm run test:stress): 10,000 fuzzed deliveries.
import { forgerySuite } from '../webhooks/forgery-suite.js';

forgerySuite({ count: 10_000, http: 10_000, seed: 20_261_122 });
