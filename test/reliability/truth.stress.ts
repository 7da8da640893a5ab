// Issue 15's classes, long form (npm run test:stress): key reuse, crashes between send and answer,
// 3xx, compressed and hostile bodies (bombs), deadlines. Figures go to docs/reliability.md.
import { describe, expect, it } from 'vitest';
import { crashCampaign, keyReuseCampaign } from './helpers/truth-money.js';
import { deadlineCampaign } from './helpers/truth-deadline.js';
import { encodingCampaign, redirectCampaign } from './helpers/truth-wire.js';
import { report } from './helpers/tools.js';

const viaFetch = { fetch: (input: string, init: RequestInit) => fetch(input, init) };

describe('truth about money (stress)', () => {
  it('key reuse: 1,200 partial refunds over 200 shared keys, 4 clients, 15% lost answers', async () => {
    const f = await keyReuseCampaign(1_200, 20261124);
    report('key reuse', { ...f });
    expect(f).toMatchObject({ doubleExecutions: 0, outcomeLies: 0, crashes: 0 });
    expect(f.replayMismatches).toBeGreaterThan(0);
    expect(f.keysRefusedBeforeSending).toBeGreaterThan(0);
  });

  it('crash-safe pattern: 300 refund rows through processes that die on 30% of answers', async () => {
    const f = await crashCampaign(300, 20261124);
    report('crash recovery', { ...f });
    expect(f).toMatchObject({ doubleRefunds: 0, missingRefunds: 0, crashes: 0 });
    expect(f.crashedCalls).toBeGreaterThan(0);
  });

  it.each([
    ['undici', {}],
    ['fetch', viaFetch],
  ])('3xx: 600 refunds answered 303 after acting, other redirects, drops (%s)', async (name, transport) => {
    const f = await redirectCampaign(600, 20261124, transport);
    report(`redirects (${name})`, { ...f });
    expect(f).toMatchObject({ followed: 0, outcomeLies: 0, falseSuccesses: 0, crashes: 0 });
  });

  it.each([
    ['undici', {}, true],
    ['fetch', viaFetch, false],
  ])('encodings and bombs: 400 calls (%s)', async (name, transport, corrupt) => {
    const f = await encodingCampaign(400, transport, corrupt);
    report(`encodings (${name})`, { ...f });
    expect(f).toMatchObject({ wrong: 0, crashes: 0, outcomeLies: 0 });
    expect(f.rssGrowthMiB).toBeLessThan(200);
  });

  it('deadlines: 1,000 calls of long Retry-After asks, hangs and 5xx under random limits (fake clock)', async () => {
    const f = await deadlineCampaign(1_000, 20261124);
    report('deadlines', { ...f });
    expect(f).toMatchObject({ pastDeadline: 0, overlongWaits: 0, missingRetryAfter: 0, crashes: 0 });
  });
});
