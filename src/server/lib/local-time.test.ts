import { describe, expect, it, vi } from 'vitest';
import { localDate, startOfNextLocalDay, wallTimeAt } from './local-time';

const at = (iso: string) => new Date(iso);

describe('localDate and startOfNextLocalDay', () => {
  it('gives the calendar date in the zone', () => {
    expect(localDate(at('2026-03-04T23:30:00Z'), 'Africa/Lagos')).toBe('2026-03-05');
    expect(localDate(at('2026-03-04T23:30:00Z'), 'UTC')).toBe('2026-03-04');
    expect(localDate(at('2026-03-05T03:30:00Z'), 'America/New_York')).toBe('2026-03-04');
  });

  it('finds the next local midnight', () => {
    expect(startOfNextLocalDay(at('2026-03-04T12:00:00Z'), 'Africa/Lagos').toISOString()).toBe(
      '2026-03-04T23:00:00.000Z',
    );
    expect(startOfNextLocalDay(at('2026-03-04T23:00:00Z'), 'Africa/Lagos').toISOString()).toBe(
      '2026-03-05T23:00:00.000Z',
    );
    // The 23-hour day in New York: midnight EST to midnight EDT.
    expect(startOfNextLocalDay(at('2026-03-08T05:30:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
    // The 25-hour day.
    expect(startOfNextLocalDay(at('2026-11-01T04:30:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-11-02T05:00:00.000Z',
    );
  });

  it('starts a day whose midnight is skipped when the clock jumps (Cairo, Santiago)', () => {
    // Egypt jumps from 24:00 to 01:00 on Friday 2026-04-24.
    const cairo = startOfNextLocalDay(at('2026-04-23T12:00:00Z'), 'Africa/Cairo');
    expect(cairo.toISOString()).toBe('2026-04-23T22:00:00.000Z');
    expect(localDate(cairo, 'Africa/Cairo')).toBe('2026-04-24');
    expect(startOfNextLocalDay(at('2026-09-05T16:00:00Z'), 'America/Santiago').toISOString()).toBe(
      '2026-09-06T04:00:00.000Z',
    );
  });
});

describe('wallTimeAt', () => {
  it('reads one instant in one zone once, and never answers for another instant or zone', () => {
    const read = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      const ms = Date.parse('2026-05-10T23:30:00.250Z');
      const lagos = { year: 2026, month: 5, day: 11, msOfDay: (30 * 60 + 0) * 1000 + 250 };
      const utc = { year: 2026, month: 5, day: 10, msOfDay: (23 * 60 + 30) * 60 * 1000 + 250 };
      expect(wallTimeAt(ms, 'Africa/Lagos')).toEqual(lagos);
      expect(wallTimeAt(ms, 'Africa/Lagos')).toEqual(lagos);
      expect(wallTimeAt(ms, 'UTC')).toEqual(utc);
      expect(wallTimeAt(ms + 1, 'UTC')).toEqual({ ...utc, msOfDay: utc.msOfDay + 1 });
      expect(wallTimeAt(ms, 'Africa/Lagos')).toEqual(lagos);
      expect(wallTimeAt(ms, 'UTC')).toEqual(utc);
      expect(read).toHaveBeenCalledTimes(4);
      // A reading handed out twice cannot be changed by the caller that got it first.
      expect(Object.isFrozen(wallTimeAt(ms, 'UTC'))).toBe(true);
      expect(() => wallTimeAt(Number.NaN, 'UTC')).toThrow(RangeError);
    } finally {
      read.mockRestore();
    }
  });
});
