import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatRelative } from './format';

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
