// Short form of the cause-object proof (every kind, form, attachment and transport once); the long
// form, with nested chains, is cause-objects.stress.ts.
import { describe, expect, it } from 'vitest';
import { causeCampaign } from './helpers/cause-campaign.js';
import { report } from './helpers/tools.js';

describe('cause objects (short): every error printable, no key on any surface', () => {
  it('0 crashes and 0 leaks', async () => {
    const figures = await causeCampaign(1);
    report('cause objects (short)', { ...figures });
    expect(figures.calls).toBe(960);
    expect(figures.crashes, figures.firstProblem).toBe(0);
    expect(figures.leaks, figures.firstProblem).toBe(0);
    // Fixed work (960 calls, each printed four ways), no clock bound: room for a loaded machine.
  }, 180_000);
});
