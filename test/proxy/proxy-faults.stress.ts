// Issue 15's proxy class (npm run test:stress): the fault campaign (drops before and after acting,
// 502 and 503, late answers) through a forward proxy that fails on its own too (its own 502, drops
// on either side of the service's answer, unsolicited 100 Continue). The proxy's password is the
// API key's text, so the key detector (reliability/helpers/surfaces.ts) finds the proxy's
// credentials too, in every form it knows (Basic user:password in base64 included).
import { describe, expect, it } from 'vitest';
import { runFaultCampaign } from '../reliability/helpers/fault-campaign.js';
import { SECRET_KEY } from '../reliability/helpers/surfaces.js';
import { report } from '../reliability/helpers/tools.js';
import { startFaultyProxy } from './faulty-proxy.js';

describe('faults through a proxy (stress)', () => {
  it('1,000 POSTs: nothing executed twice, no outcome lie, no key or proxy password on any surface', async () => {
    const proxy = await startFaultyProxy('shop', SECRET_KEY, 20261125);
    const options = { calls: 1_000, concurrency: 50, seed: 20261125, timeout: 1_000, maxRetries: 2 };
    try {
      const f = await runFaultCampaign(options, { proxy: proxy.url });
      report('proxy faults', { ...f, proxy: proxy.counts });
      expect(f.untypedErrors).toBe(0);
      expect(f.doubleExecutions).toBe(0);
      expect(f.executedButNotUnknown).toBe(0);
      expect(f.missingOutcomeFields).toBe(0);
      expect(f.secretLeaks).toEqual([]);
      expect(f.stringifyThrows).toBe(0);
      // Recovery goes through the same faulty proxy, so a retry may fail again; what it may never
      // do is execute twice: every reference ends executed exactly once.
      expect(f.retrySuccesses).toBeGreaterThan(0);
      expect(f.executedExactlyOnceAfterRetry).toBe(f.calls);
      // Not vacuous: the proxy's own faults and the service's both happened, and calls succeeded.
      expect(f.successes).toBeGreaterThan(0);
      expect(f.executedFailures).toBeGreaterThan(0);
      expect(proxy.counts).toMatchObject({ 'refused-407': 0 });
      for (const fault of ['own-502', 'drop-before', 'drop-after', 'continue'] as const)
        expect(proxy.counts[fault]).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });
});
