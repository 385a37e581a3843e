import { AppError } from '@server/lib/errors';
import { describe, expect, it, vi } from 'vitest';
import {
  accountLocalDate,
  assertValidTimeZone,
  effectiveDailyCap,
  sentTodayOf,
} from './sender-account-rules';

const ramp = {
  dailyCap: 100,
  warmupEnabled: true,
  warmupStart: 10,
  warmupIncrement: 5,
  warmupStartedOn: '2026-03-01',
  timeZone: 'Africa/Lagos',
};

describe('accountLocalDate', () => {
  it("gives the date in the account's own zone", () => {
    // 23:30 UTC is already the next day in Lagos (UTC+1) and still the same day in New York.
    const at = new Date('2026-03-01T23:30:00Z');
    expect(accountLocalDate(at, 'Africa/Lagos')).toBe('2026-03-02');
    expect(accountLocalDate(at, 'UTC')).toBe('2026-03-01');
    expect(accountLocalDate(at, 'America/New_York')).toBe('2026-03-01');
    expect(accountLocalDate(new Date('2026-12-31T23:59:59Z'), 'Asia/Tokyo')).toBe('2027-01-01');
  });

  it('reads one instant in one zone once, and never answers for another instant or zone', () => {
    const read = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      const at = new Date('2026-05-10T23:30:00Z');
      const later = new Date('2026-05-11T00:30:00Z');
      const answers = [
        accountLocalDate(at, 'Africa/Lagos'),
        accountLocalDate(new Date(at.getTime()), 'Africa/Lagos'),
        accountLocalDate(at, 'UTC'),
        accountLocalDate(at, 'Africa/Lagos'),
        accountLocalDate(later, 'UTC'),
        accountLocalDate(at, 'UTC'),
      ];
      expect(answers).toEqual([
        '2026-05-11',
        '2026-05-11',
        '2026-05-10',
        '2026-05-11',
        '2026-05-11',
        '2026-05-10',
      ]);
      // Lagos once for the instant, UTC for each change of instant (the last reading per zone is kept).
      expect(read).toHaveBeenCalledTimes(4);
      expect(() => accountLocalDate(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
    } finally {
      read.mockRestore();
    }
  });
});

describe('assertValidTimeZone', () => {
  it('accepts IANA zones and refuses anything else with a clear message', () => {
    expect(() => assertValidTimeZone('Africa/Lagos')).not.toThrow();
    expect(() => assertValidTimeZone('UTC')).not.toThrow();
    for (const zone of ['Mars/Olympus_Mons', 'Lagos', '+01:00x', '']) {
      const error = (() => {
        try {
          assertValidTimeZone(zone);
        } catch (e) {
          return e;
        }
      })();
      expect(error, zone).toBeInstanceOf(AppError);
      expect((error as AppError).message).toMatch(/^Unknown time zone/);
    }
  });
});

describe('effectiveDailyCap', () => {
  it('is the daily cap without warm-up', () => {
    expect(effectiveDailyCap({ ...ramp, warmupEnabled: false }, '2026-03-01')).toBe(100);
  });

  it('ramps up by the increment each account-local day, never past the daily cap', () => {
    expect(effectiveDailyCap(ramp, '2026-03-01')).toBe(10);
    expect(effectiveDailyCap(ramp, '2026-03-02')).toBe(15);
    expect(effectiveDailyCap(ramp, '2026-03-11')).toBe(60);
    expect(effectiveDailyCap(ramp, '2026-06-01')).toBe(100);
    // A date before the start counts as day 0; a moment is read in the account's zone.
    expect(effectiveDailyCap(ramp, '2026-02-20')).toBe(10);
    expect(effectiveDailyCap(ramp, new Date('2026-03-01T23:30:00Z'))).toBe(15);
    expect(effectiveDailyCap({ ...ramp, warmupStart: 300, dailyCap: 40 }, '2026-03-01')).toBe(40);
  });
});

describe('sentTodayOf', () => {
  it('counts only the sends of the account-local today', () => {
    const at = new Date('2026-03-02T10:00:00Z');
    expect(sentTodayOf({ sendsDay: '2026-03-02', sendsToday: 7, timeZone: 'Africa/Lagos' }, at)).toBe(7);
    expect(sentTodayOf({ sendsDay: '2026-03-01', sendsToday: 7, timeZone: 'Africa/Lagos' }, at)).toBe(0);
    expect(sentTodayOf({ sendsDay: null, sendsToday: 0, timeZone: 'Africa/Lagos' }, at)).toBe(0);
  });
});
