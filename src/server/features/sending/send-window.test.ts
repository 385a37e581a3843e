import { AppError } from '@server/lib/errors';
import { describe, expect, it } from 'vitest';
import { nextSendTime, spreadSendTimes } from './send-window';

const WEEKDAYS = [1, 2, 3, 4, 5];
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
const at = (iso: string) => new Date(iso);
const next = (iso: string, timeZone: string, start: number, end: number, sendDays = WEEKDAYS) =>
  nextSendTime({
    at: at(iso),
    timeZone,
    windowStartMinute: start,
    windowEndMinute: end,
    sendDays,
  }).toISOString();

describe('nextSendTime in zones without DST', () => {
  it('sends at once inside the window (Lagos, UTC+1)', () => {
    // Wednesday 2026-03-04 10:00 in Lagos.
    expect(next('2026-03-04T09:00:00.000Z', 'Africa/Lagos', 8 * 60, 17 * 60)).toBe(
      '2026-03-04T09:00:00.000Z',
    );
  });

  it('waits for the window to open the same morning', () => {
    // 06:00 Lagos → 08:00 Lagos = 07:00Z.
    expect(next('2026-03-04T05:00:00.000Z', 'Africa/Lagos', 8 * 60, 17 * 60)).toBe(
      '2026-03-04T07:00:00.000Z',
    );
    // 07:59:30 Lagos → 08:00, not later.
    expect(next('2026-03-04T06:59:30.000Z', 'Africa/Lagos', 8 * 60, 17 * 60)).toBe(
      '2026-03-04T07:00:00.000Z',
    );
  });

  it('moves past the end of the window and over the weekend', () => {
    // Friday 2026-03-06 17:00 Lagos is the end (exclusive) → Monday 08:00.
    expect(next('2026-03-06T16:00:00.000Z', 'Africa/Lagos', 8 * 60, 17 * 60)).toBe(
      '2026-03-09T07:00:00.000Z',
    );
    // Saturday noon → Monday.
    expect(next('2026-03-07T11:00:00.000Z', 'Africa/Lagos', 8 * 60, 17 * 60)).toBe(
      '2026-03-09T07:00:00.000Z',
    );
  });

  it('reads the weekday in the recipient zone, not in UTC', () => {
    // 2026-03-06T22:30Z is still Friday in Lagos (23:30) but Saturday 01:30 in Nairobi.
    expect(next('2026-03-06T22:30:00.000Z', 'Africa/Nairobi', 0, 1440)).toBe('2026-03-08T21:00:00.000Z');
    expect(next('2026-03-06T22:30:00.000Z', 'Africa/Lagos', 0, 1440)).toBe('2026-03-06T22:30:00.000Z');
  });

  it('handles Nairobi (UTC+3) and Johannesburg (UTC+2)', () => {
    expect(next('2026-03-04T03:00:00.000Z', 'Africa/Nairobi', 9 * 60, 12 * 60)).toBe(
      '2026-03-04T06:00:00.000Z',
    );
    expect(next('2026-03-04T03:00:00.000Z', 'Africa/Johannesburg', 9 * 60, 12 * 60)).toBe(
      '2026-03-04T07:00:00.000Z',
    );
    // Thursday 12:00 Johannesburg, window closed → Friday 09:00.
    expect(next('2026-03-05T10:00:00.000Z', 'Africa/Johannesburg', 9 * 60, 12 * 60)).toBe(
      '2026-03-06T07:00:00.000Z',
    );
  });

  it('keeps only the allowed days', () => {
    // Wednesday, only Tuesdays allowed → next Tuesday 2026-03-10.
    expect(next('2026-03-04T09:00:00.000Z', 'Africa/Lagos', 8 * 60, 17 * 60, [2])).toBe(
      '2026-03-10T07:00:00.000Z',
    );
    // Sunday only.
    expect(next('2026-03-04T09:00:00.000Z', 'Africa/Lagos', 8 * 60, 17 * 60, [7])).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });
});

describe('nextSendTime across DST transitions', () => {
  it('America/New_York spring forward: the window opens at 08:00 EDT', () => {
    // Saturday 2026-03-07 20:00 EST → Sunday 2026-03-08 08:00 EDT (UTC-4) = 12:00Z, not 13:00Z.
    expect(next('2026-03-08T01:00:00.000Z', 'America/New_York', 8 * 60, 17 * 60, EVERY_DAY)).toBe(
      '2026-03-08T12:00:00.000Z',
    );
    // Friday 2026-03-06 after the window (EST) → Monday 08:00 EDT.
    expect(next('2026-03-06T23:00:00.000Z', 'America/New_York', 8 * 60, 17 * 60)).toBe(
      '2026-03-09T12:00:00.000Z',
    );
  });

  it('a window starting in the skipped hour opens when the clock jumps', () => {
    // 02:30–04:00 on 2026-03-08: 02:30 never happens; the first instant past it is 03:00 EDT = 07:00Z.
    expect(next('2026-03-08T05:00:00.000Z', 'America/New_York', 150, 240, EVERY_DAY)).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });

  it('a window the skipped hour swallows whole moves to the next day', () => {
    // 02:00–02:30 does not exist on 2026-03-08 → Monday 02:00 EDT = 06:00Z.
    expect(next('2026-03-08T05:00:00.000Z', 'America/New_York', 120, 150, EVERY_DAY)).toBe(
      '2026-03-09T06:00:00.000Z',
    );
  });

  it('America/New_York fall back: the repeated hour opens at its first reading', () => {
    // 01:30–03:00 on 2026-11-01, from midnight EDT → 01:30 EDT = 05:30Z.
    expect(next('2026-11-01T04:00:00.000Z', 'America/New_York', 90, 180, EVERY_DAY)).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // 08:00 on the fall-back day is EST (UTC-5) = 13:00Z.
    expect(next('2026-11-01T00:00:00.000Z', 'America/New_York', 8 * 60, 17 * 60, EVERY_DAY)).toBe(
      '2026-11-01T13:00:00.000Z',
    );
    // Inside the second 01:xx (EST) with a window covering it → now.
    expect(next('2026-11-01T06:10:00.000Z', 'America/New_York', 60, 180, EVERY_DAY)).toBe(
      '2026-11-01T06:10:00.000Z',
    );
  });

  it('Europe/London spring forward and fall back', () => {
    // Friday 2026-03-27 08:00 GMT → 09:00 GMT.
    expect(next('2026-03-27T08:00:00.000Z', 'Europe/London', 9 * 60, 17 * 60)).toBe(
      '2026-03-27T09:00:00.000Z',
    );
    // Saturday before the switch → Monday 2026-03-30 09:00 BST = 08:00Z.
    expect(next('2026-03-28T18:00:00.000Z', 'Europe/London', 9 * 60, 17 * 60)).toBe(
      '2026-03-30T08:00:00.000Z',
    );
    // Friday 2026-10-23 17:30 BST → Monday 2026-10-26 09:00 GMT = 09:00Z.
    expect(next('2026-10-23T16:30:00.000Z', 'Europe/London', 9 * 60, 17 * 60)).toBe(
      '2026-10-26T09:00:00.000Z',
    );
  });

  it('Europe/London: a window ending at the jump closes at the jump', () => {
    // Sunday 2026-03-29, window 00:30–02:00. 00:00 GMT → opens 00:30Z.
    expect(next('2026-03-29T00:00:00.000Z', 'Europe/London', 30, 120, EVERY_DAY)).toBe(
      '2026-03-29T00:30:00.000Z',
    );
    expect(next('2026-03-29T00:59:00.000Z', 'Europe/London', 30, 120, EVERY_DAY)).toBe(
      '2026-03-29T00:59:00.000Z',
    );
    // 01:00Z reads 02:00 BST: closed → Monday 00:30 BST = Sunday 23:30Z.
    expect(next('2026-03-29T01:00:00.000Z', 'Europe/London', 30, 120, EVERY_DAY)).toBe(
      '2026-03-29T23:30:00.000Z',
    );
  });
});

describe('nextSendTime window shapes', () => {
  it('a window ending at 1440 runs to midnight', () => {
    // Wednesday 23:59 Lagos → now.
    expect(next('2026-03-04T22:59:00.000Z', 'Africa/Lagos', 20 * 60, 1440)).toBe('2026-03-04T22:59:00.000Z');
    // Thursday 00:00 Lagos → Thursday 20:00.
    expect(next('2026-03-04T23:00:00.000Z', 'Africa/Lagos', 20 * 60, 1440)).toBe('2026-03-05T19:00:00.000Z');
  });

  it('start == end means all day on the allowed days', () => {
    expect(next('2026-03-04T02:17:00.000Z', 'Africa/Lagos', 0, 0)).toBe('2026-03-04T02:17:00.000Z');
    expect(next('2026-03-04T02:17:00.000Z', 'Africa/Lagos', 600, 600)).toBe('2026-03-04T02:17:00.000Z');
    // Saturday → Monday 00:00 Lagos = Sunday 23:00Z.
    expect(next('2026-03-07T12:00:00.000Z', 'Africa/Lagos', 0, 1440)).toBe('2026-03-08T23:00:00.000Z');
  });

  it('an overnight window belongs to the day it starts on', () => {
    // Friday-only 22:00–06:00. Saturday 02:00 Lagos is inside Friday's window.
    expect(next('2026-03-07T01:00:00.000Z', 'Africa/Lagos', 22 * 60, 6 * 60, [5])).toBe(
      '2026-03-07T01:00:00.000Z',
    );
    // Saturday 07:00 → next Friday 22:00 = 21:00Z.
    expect(next('2026-03-07T06:00:00.000Z', 'Africa/Lagos', 22 * 60, 6 * 60, [5])).toBe(
      '2026-03-13T21:00:00.000Z',
    );
    // Friday 03:00 belongs to Thursday's window, which is off → Friday 22:00.
    expect(next('2026-03-06T02:00:00.000Z', 'Africa/Lagos', 22 * 60, 6 * 60, [5])).toBe(
      '2026-03-06T21:00:00.000Z',
    );
  });

  it('agrees with a minute-by-minute walk over random zones, windows and days', () => {
    const zones = [
      'Africa/Lagos',
      'America/New_York',
      'Europe/London',
      'Australia/Sydney',
      'America/Santiago',
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const wallFormat = new Map<string, Intl.DateTimeFormat>();
    const wall = (ms: number, zone: string) => {
      let format = wallFormat.get(zone);
      if (!format) {
        format = new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          hourCycle: 'h23',
          weekday: 'short',
          hour: 'numeric',
          minute: 'numeric',
        });
        wallFormat.set(zone, format);
      }
      const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
      const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1;
      return { weekday, minute: Number(parts.hour) * 60 + Number(parts.minute) };
    };
    // Around the 2026 transitions of these zones, and an ordinary week.
    const starts = [
      '2026-03-07T00:00:00Z',
      '2026-03-28T12:00:00Z',
      '2026-04-04T10:00:00Z',
      '2026-10-31T12:00:00Z',
    ];
    for (let i = 0; i < 40; i++) {
      const zone = zones[i % zones.length]!;
      const startMinute = Math.floor(random() * 24) * 60 + (random() < 0.5 ? 0 : 30);
      const endMinute = Math.min(1440, startMinute + 30 + Math.floor(random() * 10) * 60);
      const sendDays = EVERY_DAY.filter(() => random() < 0.6);
      if (sendDays.length === 0) sendDays.push(3);
      const from = Date.parse(starts[i % starts.length]!) + Math.floor(random() * 48) * 3_600_000;
      const expected = (() => {
        for (let ms = from; ; ms += 60_000) {
          const local = wall(ms, zone);
          if (sendDays.includes(local.weekday) && local.minute >= startMinute && local.minute < endMinute)
            return ms;
        }
      })();
      const actual = nextSendTime({
        at: new Date(from),
        timeZone: zone,
        windowStartMinute: startMinute,
        windowEndMinute: endMinute,
        sendDays,
      });
      expect({ zone, startMinute, endMinute, sendDays, from, result: actual.getTime() }).toEqual({
        zone,
        startMinute,
        endMinute,
        sendDays,
        from,
        result: expected,
      });
    }
  });

  it('refuses impossible windows with a clear error', () => {
    const base = { at: at('2026-03-04T09:00:00Z'), timeZone: 'Africa/Lagos' };
    expect(() =>
      nextSendTime({ ...base, windowStartMinute: 480, windowEndMinute: 1020, sendDays: [] }),
    ).toThrow('Choose at least one sending day');
    expect(() =>
      nextSendTime({ ...base, windowStartMinute: 480, windowEndMinute: 1020, sendDays: [0, 8] }),
    ).toThrow(AppError);
    expect(() =>
      nextSendTime({ ...base, windowStartMinute: -1, windowEndMinute: 1020, sendDays: [1] }),
    ).toThrow('between 00:00 and 24:00');
    expect(() =>
      nextSendTime({ ...base, windowStartMinute: 480, windowEndMinute: 1441, sendDays: [1] }),
    ).toThrow(AppError);
    expect(() =>
      nextSendTime({
        ...base,
        timeZone: 'Mars/Olympus',
        windowStartMinute: 480,
        windowEndMinute: 1020,
        sendDays: [1],
      }),
    ).toThrow('Unknown time zone "Mars/Olympus"');
  });
});

describe('spreadSendTimes', () => {
  const start = at('2026-03-04T09:00:00Z');

  it('puts every message at the start when the gap is zero', () => {
    const times = spreadSendTimes({ start, count: 5, gapMinSeconds: 0, gapMaxSeconds: 0 });
    expect(times.map((t) => t.toISOString())).toEqual(Array(5).fill('2026-03-04T09:00:00.000Z'));
  });

  it('adds one random gap after another', () => {
    const times = spreadSendTimes({
      start,
      count: 3,
      gapMinSeconds: 60,
      gapMaxSeconds: 180,
      random: () => 0.5,
    });
    expect(times.map((t) => t.toISOString())).toEqual([
      '2026-03-04T09:00:00.000Z',
      '2026-03-04T09:02:00.000Z',
      '2026-03-04T09:04:00.000Z',
    ]);
    const extremes = [0, 0.999_999];
    let call = 0;
    const bounds = spreadSendTimes({
      start,
      count: 3,
      gapMinSeconds: 60,
      gapMaxSeconds: 180,
      random: () => extremes[call++ % 2]!,
    });
    expect(bounds[1]!.getTime() - bounds[0]!.getTime()).toBe(60_000);
    expect(bounds[2]!.getTime() - bounds[1]!.getTime()).toBe(180_000);
  });

  it('keeps every gap within [min, max] with the real random source', () => {
    const times = spreadSendTimes({ start, count: 500, gapMinSeconds: 30, gapMaxSeconds: 45 });
    expect(times[0]).toEqual(start);
    for (let i = 1; i < times.length; i++) {
      const gap = times[i]!.getTime() - times[i - 1]!.getTime();
      expect(gap).toBeGreaterThanOrEqual(30_000);
      expect(gap).toBeLessThanOrEqual(45_000);
    }
  });

  it('returns nothing for no messages and refuses nonsense', () => {
    expect(spreadSendTimes({ start, count: 0, gapMinSeconds: 1, gapMaxSeconds: 2 })).toEqual([]);
    expect(() => spreadSendTimes({ start, count: -1, gapMinSeconds: 0, gapMaxSeconds: 0 })).toThrow(AppError);
    expect(() => spreadSendTimes({ start, count: 2, gapMinSeconds: -5, gapMaxSeconds: 0 })).toThrow(AppError);
    expect(() => spreadSendTimes({ start, count: 2, gapMinSeconds: 10, gapMaxSeconds: 5 })).toThrow(
      'must not be shorter',
    );
  });
});
