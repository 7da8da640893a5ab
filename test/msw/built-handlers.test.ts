/**
 * The package as published hands out handlers of whichever msw the merchant installed, from its
 * ESM and its CommonJS build alike (msw 3 is ESM only: the CommonJS build must still load it).
 */
import { createRequire } from 'node:module';
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';
import type * as WalletTesting from '@wallet/node/testing';

import { requireBuild, root } from '../helpers/loaded-modules.js';

type Testing = typeof WalletTesting;

it('sandbox.handlers from the built ESM and CommonJS entries answer through MSW', async () => {
  requireBuild();
  const builds: Record<string, Testing> = {
    esm: (await import(`${root}/dist/testing.js`)) as Testing,
    cjs: createRequire(import.meta.url)(`${root}/dist/testing.cjs`) as Testing,
  };
  for (const [build, { createSandbox }] of Object.entries(builds)) {
    const sandbox = createSandbox();
    const server = setupServer(...sandbox.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const response = await fetch(`${sandbox.baseUrl}/v1/charges/verify/order_404`, {
        headers: { authorization: 'Bearer sk_test_demo' },
      });
      expect({ build, status: response.status }).toEqual({ build, status: 404 });
      expect(sandbox.requests.map((r) => r.path)).toEqual(['/v1/charges/verify/order_404']);
    } finally {
      server.close();
      await sandbox.close();
    }
  }
});
