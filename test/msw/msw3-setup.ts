/**
 * Setup of the msw 3 run: `sandbox.handlers` loads `msw` with Node's own require, which vite's
 * alias does not reach; this resolve hook (Node's public `module.registerHooks`) hands it msw 3,
 * as a merchant's project with msw 3 installed would.
 */
import module from 'node:module';

import { mswMajor } from './msw3.js';

interface ResolveHooks {
  registerHooks(hooks: {
    resolve(
      specifier: string,
      context: unknown,
      next: (specifier: string, context: unknown) => unknown,
    ): unknown;
  }): unknown;
}

(module as unknown as ResolveHooks).registerHooks({
  resolve: (specifier, context, next) => next(specifier.replace(/^msw(?=\/|$)/, 'msw3'), context),
});

// A run that says msw 3 and loads msw 2 would prove nothing: it fails here instead.
if (mswMajor() !== 3) throw new Error(`the msw 3 run loads msw ${mswMajor()}`);
