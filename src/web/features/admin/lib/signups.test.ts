import { describe, expect, it } from 'vitest';
import { fillSignupDays, niceCeiling, summariseSignups } from './signups';

const now = new Date('2025-06-30T15:00:00Z');

describe('fillSignupDays', () => {
  it('returns every day of the window, oldest first, ending today', () => {
    const series = fillSignupDays([], now);
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ day: '2025-06-01', count: 0 });
    expect(series[29]).toEqual({ day: '2025-06-30', count: 0 });
  });

  it('places reported counts on their days and zeros in the gaps', () => {
    const series = fillSignupDays(
      [
        { day: '2025-06-03', count: 4 },
        { day: '2025-06-30T00:00:00.000Z', count: 2 },
      ],
      now,
    );
    expect(series.find((point) => point.day === '2025-06-03')?.count).toBe(4);
    expect(series.find((point) => point.day === '2025-06-04')?.count).toBe(0);
    expect(series.at(-1)).toEqual({ day: '2025-06-30', count: 2 });
  });

  it('drops days older than the window and crosses month ends', () => {
    const series = fillSignupDays([{ day: '2025-05-31', count: 9 }], now);
    expect(series.reduce((sum, point) => sum + point.count, 0)).toBe(0);
    const early = fillSignupDays([], new Date('2025-03-02T00:00:00Z'), 5);
    expect(early.map((point) => point.day)).toEqual([
      '2025-02-26',
      '2025-02-27',
      '2025-02-28',
      '2025-03-01',
      '2025-03-02',
    ]);
  });

  it('ends on a later reported day when the server clock is ahead', () => {
    const series = fillSignupDays([{ day: '2025-07-01', count: 1 }], now);
    expect(series.at(-1)).toEqual({ day: '2025-07-01', count: 1 });
    expect(series[0]?.day).toBe('2025-06-02');
  });
});

describe('summariseSignups', () => {
  it('totals the window and finds the busiest day', () => {
    expect(
      summariseSignups([
        { day: '2025-06-01', count: 1 },
        { day: '2025-06-02', count: 5 },
        { day: '2025-06-03', count: 5 },
      ]),
    ).toEqual({ total: 11, max: 5, busiest: { day: '2025-06-02', count: 5 } });
  });

  it('has no busiest day when nobody signed up', () => {
    expect(summariseSignups([{ day: '2025-06-01', count: 0 }])).toEqual({ total: 0, max: 0, busiest: null });
  });
});

describe('niceCeiling', () => {
  it('rounds the scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 6, 10, 11, 24, 51, 999].map(niceCeiling)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 100, 1000,
    ]);
  });
});
