import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatRelative, humanizeDates } from './format';

describe('format', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('shows a dash for missing or invalid dates', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatRelative(undefined, now)).toBe('—');
  });

  it('says "just now" within 45 seconds and names the largest unit beyond', () => {
    expect(formatRelative('2026-11-21T11:59:30Z', now)).toBe('just now');
    expect(formatRelative('2026-11-21T11:55:00Z', now)).toMatch(/5 minutes ago/);
    expect(formatRelative('2026-11-20T12:00:00Z', now)).toMatch(/yesterday|1 day ago/);
  });
});

describe('humanizeDates', () => {
  it("formats a timestamp in a sentence for people, in the reader's zone", () => {
    expect(
      humanizeDates('The contact is paused until 2026-12-01T07:00:00.000Z', 'en-GB', 'Africa/Lagos'),
    ).toBe('The contact is paused until 1 Dec 2026, 08:00');
  });

  it('formats a bare date as that calendar day, and leaves other text alone', () => {
    expect(humanizeDates('Out of office until 2026-12-01: back soon', 'en-GB', 'America/New_York')).toBe(
      'Out of office until 1 Dec 2026: back soon',
    );
    expect(humanizeDates('Order 12345 of 3 items', 'en-GB')).toBe('Order 12345 of 3 items');
  });

  it('leaves a date that is part of a file name, a path or an id as it is', () => {
    for (const text of [
      'Saved as tambari-contacts-2026-11-27.csv.',
      'See /archive/2026-11-27/issue',
      'Backup 2026-11-27.tar.gz is ready',
      'Run report_2026-11-27 again',
    ]) {
      expect(humanizeDates(text, 'en-GB')).toBe(text);
    }
    expect(humanizeDates('Back on 2026-12-01.', 'en-GB')).toBe('Back on 1 Dec 2026.');
  });
});
