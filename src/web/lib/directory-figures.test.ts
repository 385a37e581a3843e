import { describe, expect, it } from 'vitest';
import { directoryFigure } from './directory-figures';

const stats = (verifiedContacts: number, verifiedContactsRounded: boolean, countries: number) => ({
  verifiedContacts,
  verifiedContactsRounded,
  countries,
  categories: 1,
  sampleData: false,
  asOf: '2026-11-25T00:00:00.000Z',
});

describe('the directory figure', () => {
  it('quotes the live, rounded-down count with a plus', () => {
    expect(directoryFigure(stats(12_400, true, 38))).toBe('12,400+ verified contacts in 38 countries');
    expect(directoryFigure(stats(1, false, 1))).toBe('1 verified contact in 1 country');
  });

  it('quotes no number when there are no real verified records', () => {
    expect(directoryFigure(stats(0, false, 0))).toBeNull();
    expect(directoryFigure(undefined)).toBeNull();
  });
});
