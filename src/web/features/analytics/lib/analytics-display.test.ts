import { describe, expect, it } from 'vitest';
import { campaignHref, formatDay, formatRoi, rateOf, readPeriod } from './analytics-display';

describe('readPeriod', () => {
  it.each([
    ['7', 7],
    ['30', 30],
    ['90', 90],
  ] as const)('reads %s days', (value, days) => {
    expect(readPeriod(value)).toBe(days);
  });

  it.each([null, '', '14', 'abc', '-7', '7.5'])('falls back to 30 days for %s', (value) => {
    expect(readPeriod(value)).toBe(30);
  });
});

describe('rateOf', () => {
  it('gives a percentage of the messages sent', () => {
    expect(rateOf(3, 6)).toBe('50%');
    expect(rateOf(1, 3)).toBe('33.3%');
    expect(rateOf(0, 6)).toBe('0%');
  });

  it('shows a dash when nothing was sent', () => {
    expect(rateOf(0, 0)).toBe('—');
  });
});

describe('formatRoi', () => {
  it('signs the percentage', () => {
    expect(formatRoi(12.5897)).toBe('+1,259%');
    expect(formatRoi(-0.4)).toBe('-40%');
    expect(formatRoi(-1)).toBe('-100%');
    expect(formatRoi(0)).toBe('0%');
  });

  it('shows a dash without a plan cost', () => {
    expect(formatRoi(null)).toBe('—');
  });
});

describe('campaignHref', () => {
  it('opens a campaign on its page and a newsletter in its editor', () => {
    expect(campaignHref({ id: 'c1', kind: 'campaign', newsletterId: null })).toBe('/campaigns/c1');
    expect(campaignHref({ id: 'c2', kind: 'newsletter', newsletterId: 'n2' })).toBe('/newsletters/editor/n2');
    expect(campaignHref({ id: 'c3', kind: 'bulk', newsletterId: 'n3' })).toBe('/newsletters/editor/n3');
  });

  it('has no link for a send whose newsletter was deleted', () => {
    expect(campaignHref({ id: 'c4', kind: 'newsletter', newsletterId: null })).toBeNull();
  });
});

describe('formatDay', () => {
  it('names the UTC day', () => {
    expect(formatDay('2025-06-02')).toBe('Mon 2 Jun');
  });
});
