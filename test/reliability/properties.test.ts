// Short form of the property proofs; the long form (10,000 runs each) is properties.stress.ts.
import { propertySuite } from './helpers/property-suite.js';

propertySuite('properties (short)', 100);
