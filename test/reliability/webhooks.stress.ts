// Issue 15's webhook class (npm run test:stress): genuine, genuine-but-unexpected and forged
// deliveries, concurrent duplicates, a failing and a slower-than-the-lease onEvent, with and
// without onInvalidEvent, on a fake clock (helpers/webhook-campaign.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { webhookCampaign } from './helpers/webhook-campaign.js';
import { report } from './helpers/tools.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('webhooks (stress): nothing run twice, nothing forged accepted, nothing genuine dropped', () => {
  it.each([
    ['with onInvalidEvent', true],
    ['without onInvalidEvent', false],
  ])('2,000 events (%s)', async (name, surfaceInvalid) => {
    const f = await webhookCampaign(
      2_000,
      20261125,
      surfaceInvalid,
      async (ms) => void (await vi.advanceTimersByTimeAsync(ms)),
    );
    report(`webhooks (${name})`, { ...f });
    expect(f, f.firstProblem).toMatchObject({
      doubleExecutions: 0,
      forgeriesAccepted: 0,
      genuineAnswered400: 0,
      genuineLost: 0,
      leaks: 0,
      crashes: 0,
    });
    // The hard paths were taken: redeliveries met a lease held by a slow onEvent.
    expect(f.heldByLease).toBeGreaterThan(0);
  });
});
