/*
 * How long an out-of-office pauses a contact: until the morning after the day they said they would be
 * back (08:00 in their time zone, so the follow-up is not the first thing buried under a week's mail),
 * or a week when they named no day.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const OUT_OF_OFFICE_DEFAULT_DAYS = 7;
export const OUT_OF_OFFICE_RESUME_HOUR = 8;

export function outOfOfficePausedUntil(options: {
  /** The first day back, a calendar date as midnight UTC (classifyInbound's returnDate). */
  returnDate: Date | null;
  /** The contact's IANA zone; an unknown or missing one means UTC. */
  timeZone: string | null;
  at: Date;
}): Date {
  if (!options.returnDate) return new Date(options.at.getTime() + OUT_OF_OFFICE_DEFAULT_DAYS * DAY_MS);
  const dayAfter = new Date(options.returnDate.getTime() + DAY_MS);
  return wallTimeToInstant({
    year: dayAfter.getUTCFullYear(),
    month: dayAfter.getUTCMonth() + 1,
    day: dayAfter.getUTCDate(),
    hour: OUT_OF_OFFICE_RESUME_HOUR,
    timeZone: usableTimeZone(options.timeZone),
  });
}

function usableTimeZone(timeZone: string | null): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** The instant the local clock in `timeZone` reads this date and hour (08:00 never falls in a DST gap). */
function wallTimeToInstant(options: {
  year: number;
  month: number;
  day: number;
  hour: number;
  timeZone: string;
}): Date {
  const wall = Date.UTC(options.year, options.month - 1, options.day, options.hour);
  const first = wall - offsetAt(wall, options.timeZone);
  // The offset at the guess may differ from the offset at the answer across a transition: look again.
  return new Date(wall - offsetAt(first, options.timeZone));
}

function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return local - Math.floor(instant / 1000) * 1000;
}
