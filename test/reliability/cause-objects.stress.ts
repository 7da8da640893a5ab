// Long form of the cause-object proof: eight rounds, later ones nesting two kinds in each cause.
import { describe, expect, it } from 'vitest';
import { causeCampaign } from './helpers/cause-campaign.js';
import { report } from './helpers/tools.js';

describe('cause objects (stress): every error printable, no key on any surface', () => {
  it('0 crashes and 0 leaks', async () => {
    const figures = await causeCampaign(8);
    report('cause objects (stress)', { ...figures });
    expect(figures.calls).toBe(7_680);
    expect(figures.crashes, figures.firstProblem).toBe(0);
    expect(figures.leaks, figures.firstProblem).toBe(0);
  });
});
