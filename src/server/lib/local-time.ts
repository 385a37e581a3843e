import { AppError } from './errors';
import { lastReadingPerZone } from './last-reading-per-zone';

/*
 * Wall-clock arithmetic in IANA zones with Intl only (the runtime's ICU tz data); no date library.
 * A local reading that a spring-forward gap skips resolves to the end of the gap; one a fall-back
 * overlap repeats resolves to its first occurrence.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** Milliseconds since local midnight. */
  readonly msOfDay: number;
}

// One formatter per zone: building an Intl.DateTimeFormat (~40 µs) costs tens of format calls.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new AppError('validation', `Unknown time zone "${String(timeZone).slice(0, 64)}"`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall time at an instant in a zone; a batch's one instant is read once per zone. */
export const wallTimeAt: (instantMs: number, timeZone: string) => WallTime = lastReadingPerZone(readWallTime);

function readWallTime(instantMs: number, timeZone: string): WallTime {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of formatterFor(timeZone).formatToParts(instantMs)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
    }
  }
  // Intl drops milliseconds; carry them over from the instant so comparisons stay exact.
  const ms = ((instantMs % 1000) + 1000) % 1000;
  return Object.freeze({ year, month, day, msOfDay: ((hour * 60 + minute) * 60 + second) * 1000 + ms });
}

/** The zone's offset from UTC at an instant, in ms (UTC+1 → 3,600,000). */
export function offsetAt(instantMs: number, timeZone: string): number {
  const wall = wallTimeAt(instantMs, timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day) + wall.msOfDay - instantMs;
}

/** A local date as the UTC instant of its midnight: a plain day number for calendar arithmetic. */
export function dayKey(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day);
}

/** ISO weekday (Monday 1 … Sunday 7) of a day key. */
export function isoWeekday(key: number): number {
  const weekday = new Date(key).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/**
 * The first instant at which the local clock reads `minute` on the local date `key` — or, when that
 * reading falls in a spring-forward gap, the end of the gap (the first instant past it).
 */
export function instantOfWallTime(key: number, minute: number, timeZone: string): number {
  const wallMs = key + minute * MINUTE_MS;
  // Offsets a day either side: at most one transition lies between them in any real zone.
  const offsetBefore = offsetAt(wallMs - DAY_MS, timeZone);
  const offsetAfter = offsetAt(wallMs + DAY_MS, timeZone);
  const early = wallMs - Math.max(offsetBefore, offsetAfter);
  const late = wallMs - Math.min(offsetBefore, offsetAfter);
  if (offsetAt(early, timeZone) === wallMs - early) return early;
  if (early !== late && offsetAt(late, timeZone) === wallMs - late) return late;
  // Neither reading exists: the clock jumped over it. The transition lies between the two candidates;
  // find it to the second (tz transitions fall on whole seconds).
  let low = early; // before the transition: the old offset
  let high = late; // after it
  const offsetLow = offsetAt(low, timeZone);
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (offsetAt(middle, timeZone) === offsetLow) low = middle;
    else high = middle;
  }
  return high;
}

/** The local calendar date of an instant in a zone, as YYYY-MM-DD (daily caps count by this day). */
export function localDate(at: Date, timeZone: string): string {
  const wall = wallTimeAt(at.getTime(), timeZone);
  return `${String(wall.year).padStart(4, '0')}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
}

/** The instant the local day of `at` began (local midnight, or the end of a DST gap that swallows it). */
export function startOfLocalDay(at: Date, timeZone: string): Date {
  const wall = wallTimeAt(at.getTime(), timeZone);
  return new Date(instantOfWallTime(dayKey(wall.year, wall.month, wall.day), 0, timeZone));
}

/** The instant the next local day begins (local midnight, or the end of a DST gap that swallows it). */
export function startOfNextLocalDay(at: Date, timeZone: string): Date {
  const wall = wallTimeAt(at.getTime(), timeZone);
  return new Date(instantOfWallTime(dayKey(wall.year, wall.month, wall.day) + DAY_MS, 0, timeZone));
}
