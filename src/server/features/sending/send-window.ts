import { AppError } from '@server/lib/errors';
import { DAY_MS, dayKey, instantOfWallTime, isoWeekday, MINUTE_MS, wallTimeAt } from '@server/lib/local-time';

export { localDate, startOfLocalDay, startOfNextLocalDay } from '@server/lib/local-time';
export { resolveRecipientTimeZone } from './recipient-time-zone';

/*
 * When a message may go out inside a campaign's sending window, in the recipient's (or the campaign's)
 * zone, and how a batch is spread over time.
 *
 * Window semantics: a window opens the first time the local clock reads its start and closes the first
 * time it reads its end. A start inside a spring-forward gap opens at the end of the gap (the first
 * instant whose wall time is past the start); an end inside a fall-back overlap closes at its first
 * reading. start == end means all day; start > end is an overnight window (22:00–06:00) that belongs to
 * the day it starts on, so "Friday 22:00–06:00" sends into Saturday morning even when Saturday is off.
 */

const MINUTES_PER_DAY = 1440;

export interface SendWindow {
  /** Minutes after local midnight, 0–1440. */
  windowStartMinute: number;
  windowEndMinute: number;
  /** ISO weekdays (Monday 1 … Sunday 7) on which the window opens. */
  sendDays: readonly number[];
}

function assertWindow({ windowStartMinute, windowEndMinute, sendDays }: SendWindow): void {
  for (const minute of [windowStartMinute, windowEndMinute]) {
    if (!Number.isInteger(minute) || minute < 0 || minute > MINUTES_PER_DAY) {
      throw new AppError('validation', 'Sending window hours must be between 00:00 and 24:00');
    }
  }
  if (!sendDays.some((day) => Number.isInteger(day) && day >= 1 && day <= 7)) {
    throw new AppError('validation', 'Choose at least one sending day');
  }
}

/**
 * The first instant ≥ `at` inside the sending window on an allowed weekday in `timeZone`: `at` itself
 * when it already is inside, else the next opening.
 */
export function nextSendTime(input: SendWindow & { at: Date; timeZone: string }): Date {
  assertWindow(input);
  const { at, timeZone, sendDays } = input;
  const atMs = at.getTime();
  if (Number.isNaN(atMs)) throw new AppError('validation', 'Invalid send time');
  // 0 and 1440 are the same clock reading. A window whose end reads at or before its start ends on the
  // next day: an all-day window (start == end), one that runs to midnight (end 1440), an overnight one.
  const start = input.windowStartMinute % MINUTES_PER_DAY;
  const end = input.windowEndMinute % MINUTES_PER_DAY;
  const endsNextDay = end <= start;

  const wall = wallTimeAt(atMs, timeZone);
  const today = dayKey(wall.year, wall.month, wall.day);
  const minuteNow = wall.msOfDay / MINUTE_MS;

  // Fast path, the common case while a campaign runs: the local clock already reads inside a window.
  if (start === end) {
    if (sendDays.includes(isoWeekday(today))) return at;
  } else {
    if (minuteNow >= start && (endsNextDay || minuteNow < end) && sendDays.includes(isoWeekday(today)))
      return at;
    if (endsNextDay && minuteNow < end && sendDays.includes(isoWeekday(today - DAY_MS))) return at;
  }

  // Walk the windows in order, from yesterday's when it reaches into today. Nine days cover a week of
  // disallowed days plus a window a DST gap swallows whole.
  for (let offset = endsNextDay && end > 0 ? -1 : 0; offset <= 8; offset++) {
    const day = today + offset * DAY_MS;
    if (!sendDays.includes(isoWeekday(day))) continue;
    const opens = instantOfWallTime(day, start, timeZone);
    const closes = instantOfWallTime(endsNextDay ? day + DAY_MS : day, end, timeZone);
    if (closes <= atMs || closes <= opens) continue;
    return opens <= atMs ? at : new Date(opens);
  }
  // Unreachable with at least one valid weekday; kept so a bad zone rule cannot loop or return garbage.
  throw new AppError('validation', 'No sending time found within the next week');
}

/**
 * Send times for `count` messages from `start`, each after the previous by a random gap drawn uniformly
 * from [gapMinSeconds, gapMaxSeconds]. The first goes at `start`: there is nothing to space it from.
 */
export function spreadSendTimes(input: {
  start: Date;
  count: number;
  gapMinSeconds: number;
  gapMaxSeconds: number;
  random?: () => number;
}): Date[] {
  const { start, count, gapMinSeconds, gapMaxSeconds, random = Math.random } = input;
  if (!Number.isInteger(count) || count < 0) throw new AppError('validation', 'Invalid number of messages');
  if (!Number.isFinite(gapMinSeconds) || !Number.isFinite(gapMaxSeconds) || gapMinSeconds < 0) {
    throw new AppError('validation', 'The gap between emails must be zero or more seconds');
  }
  if (gapMaxSeconds < gapMinSeconds) {
    throw new AppError('validation', 'The longest gap between emails must not be shorter than the shortest');
  }
  const times = new Array<Date>(count);
  const spanMs = (gapMaxSeconds - gapMinSeconds) * 1000;
  let ms = start.getTime();
  for (let i = 0; i < count; i++) {
    if (i > 0) ms += Math.round(gapMinSeconds * 1000 + random() * spanMs);
    times[i] = new Date(ms);
  }
  return times;
}
