// Issue 15's "aborts logged" class (npm run test:stress): calls ended by AbortSignal.timeout() or
// controller.abort(reason) at random points, eight calls to a signal, every error printed as a
// merchant logs it (helpers/abort-campaign.ts). Both transports.
import { describe, expect, it } from 'vitest';
import { abortCampaign } from './helpers/abort-campaign.js';
import { report } from './helpers/tools.js';

const viaFetch = { fetch: (input: string, init: RequestInit) => fetch(input, init) };

describe('aborts logged (stress)', () => {
  it.each([
    ['undici', {}],
    ['fetch', viaFetch],
  ])(
    '800 refunds aborted at random points (%s): printable, no key, no outcome lie',
    async (name, transport) => {
      const f = await abortCampaign(800, 20261125, transport);
      report(`aborts (${name})`, { ...f });
      expect(f, f.firstProblem).toMatchObject({
        doubleExecutions: 0,
        outcomeLies: 0,
        leaks: 0,
        crashes: 0,
        warnings: 0,
      });
      // Not vacuous: calls were aborted, and some got through.
      expect(f.aborted).toBeGreaterThan(100);
      expect(f.successes).toBeGreaterThan(0);
    },
  );
});
