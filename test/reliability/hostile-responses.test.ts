// Hostile responses through the client's own undici Agent; the fetch transport is proved in
// hostile-responses-fetch.stress.ts.
import { hostileSuite } from './helpers/hostile-suite.js';

hostileSuite('hostile responses', {});
