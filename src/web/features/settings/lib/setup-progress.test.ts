import { describe, expect, it } from 'vitest';
import { setupProgress } from './setup-progress';

describe('setupProgress', () => {
  it('counts all three steps the page shows', () => {
    expect(setupProgress({ connected: false, hasLists: false, hasCampaign: false })).toBe(
      '0 of 3 setup steps done.',
    );
  });

  it('does not call setup complete while the first campaign is still to do', () => {
    expect(setupProgress({ connected: true, hasLists: true, hasCampaign: false })).toBe(
      '2 of 3 setup steps done.',
    );
    expect(setupProgress({ connected: true, hasLists: true, hasCampaign: true })).toBe(
      'All 3 setup steps done.',
    );
  });

  it('says nothing until every step is known', () => {
    expect(setupProgress({ connected: true, hasLists: true, hasCampaign: null })).toBeNull();
  });
});
