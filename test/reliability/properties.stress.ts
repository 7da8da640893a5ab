// Long form of the property proofs (npm run test:stress); the short form is properties.test.ts.
import { propertySuite } from './helpers/property-suite.js';

propertySuite('properties (stress)', 10_000);
