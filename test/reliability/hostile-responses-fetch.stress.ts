// Hostile responses through the fetch transport (`fetch` option), which must keep every rule of
// the undici path: deadline, body cap, no redirects, scrubbing.
import { hostileSuite } from './helpers/hostile-suite.js';

hostileSuite('hostile responses (fetch)', { fetch: (input, init) => globalThis.fetch(input, init) });
