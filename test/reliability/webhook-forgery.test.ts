// Fast form of the webhook forgery proof (npm test); the full 10,000 are in webhook-forgery.stress.ts.
import { forgerySuite } from '../webhooks/forgery-suite.js';

forgerySuite({ count: 1_000, http: 300, seed: 7 });
