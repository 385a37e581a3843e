/*
 * Reads the return date out of an out-of-office message ("back on 3 December", "return on 12/01/2027",
 * "until Monday 5th", "de retour le 4 janvier"), relative to the day the message was written. A date
 * nobody could mean (in the past, more than a year away, 31 February) gives null, and the caller falls
 * back to a default pause. The result is a calendar date, as midnight UTC.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** An auto-reply announcing a return further away than this is not believed. */
const MAX_AHEAD_DAYS = 366;
/** How far after a trigger word ("back", "until"…) the date may start. */
const WINDOW_CHARS = 60;

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  janvier: 1,
  janv: 1,
  february: 2,
  feb: 2,
  février: 2,
  fevrier: 2,
  févr: 2,
  fevr: 2,
  fév: 2,
  march: 3,
  mar: 3,
  mars: 3,
  april: 4,
  apr: 4,
  avril: 4,
  avr: 4,
  may: 5,
  mai: 5,
  june: 6,
  jun: 6,
  juin: 6,
  july: 7,
  jul: 7,
  juillet: 7,
  juil: 7,
  august: 8,
  aug: 8,
  août: 8,
  aout: 8,
  september: 9,
  sept: 9,
  sep: 9,
  septembre: 9,
  october: 10,
  oct: 10,
  octobre: 10,
  november: 11,
  nov: 11,
  novembre: 11,
  december: 12,
  dec: 12,
  décembre: 12,
  decembre: 12,
  déc: 12,
};

/** ISO weekday: Monday = 1 … Sunday = 7. */
const WEEKDAYS: Record<string, number> = {
  monday: 1,
  mon: 1,
  lundi: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  mardi: 2,
  wednesday: 3,
  wed: 3,
  mercredi: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  jeudi: 4,
  friday: 5,
  fri: 5,
  vendredi: 5,
  saturday: 6,
  sat: 6,
  samedi: 6,
  sunday: 7,
  sun: 7,
  dimanche: 7,
};
/** Weekday names safe to read on their own ("back Monday"); "sat" or "sun" alone are not. */
const FULL_WEEKDAYS = Object.keys(WEEKDAYS).filter((name) => name.length > 4 || name === 'lundi');

const byLength = (names: string[]) => [...names].sort((a, b) => b.length - a.length).join('|');
const MONTH = `(${byLength(Object.keys(MONTHS))})\\.?`;
const WEEKDAY = `(${byLength(Object.keys(WEEKDAYS))})\\.?`;
const FULL_WEEKDAY = `(${byLength(FULL_WEEKDAYS)})`;
const ORDINAL = '(?:st|nd|rd|th|er|ème|eme|e)?';
const YEAR = '(?:\\s*,?\\s*(\\d{4}))?';
// Letters of either language; \b does not know é or û.
const END = '(?![\\p{L}\\d])';
const START = '(?<![\\p{L}\\d])';

/** "Back", "return", "de retour": the day named is the first day back. */
const RETURN_TRIGGERS = new RegExp(
  `${START}(?:back|return(?:ing|s)?|resum(?:e|ing)|in the office|de retour|retour|reviendrai|rentrerai|serai là)${END}`,
  'gu',
);
/** "Until", "jusqu'au": the last day away, read the same way (mail waits a day more anyway). */
const UNTIL_TRIGGERS = new RegExp(
  `${START}(?:until|till|til|through|thru|jusqu['’]\\s*(?:au|à|a))${END}`,
  'gu',
);

interface DateMatch {
  index: number;
  length: number;
  resolve(reference: Date): Date | null;
}

type Pattern = { regex: RegExp; build(m: RegExpExecArray): DateMatch['resolve'] };

const PATTERNS: Pattern[] = [
  {
    // 2027-01-12
    regex: new RegExp(`${START}(\\d{4})-(\\d{1,2})-(\\d{1,2})${END}`, 'u'),
    build: (m) => () => calendarDate(Number(m[1]), Number(m[2]), Number(m[3])),
  },
  {
    // 12/01/2027, 12.01.27, 12/01
    regex: new RegExp(`${START}(\\d{1,2})[./-](\\d{1,2})(?:[./-](\\d{4}|\\d{2}))?${END}(?![./-]\\d)`, 'u'),
    build: (m) => (reference) => {
      let [day, month] = [Number(m[1]), Number(m[2])];
      // Day first, as in Nigeria and France, unless only month-first makes sense (12/25).
      if (month > 12 && day <= 12) [day, month] = [month, day];
      return withYear(reference, month, day, m[3]);
    },
  },
  {
    // Monday 7 December 2026, 3rd of December, 4 janvier, lundi 4 janv.
    regex: new RegExp(
      `${START}(?:${WEEKDAY}\\s*,?\\s*)?(?:the\\s+)?(\\d{1,2})${ORDINAL}\\s+(?:of\\s+)?${MONTH}${END}${YEAR}`,
      'u',
    ),
    build: (m) => (reference) => withYear(reference, MONTHS[m[3]!]!, Number(m[2]), m[4]),
  },
  {
    // December 3rd, Monday, December 7, 2026
    regex: new RegExp(
      `${START}(?:${WEEKDAY}\\s*,?\\s*)?${MONTH}\\s+(?:the\\s+)?(\\d{1,2})${ORDINAL}${END}(?!:)${YEAR}`,
      'u',
    ),
    build: (m) => (reference) => withYear(reference, MONTHS[m[2]!]!, Number(m[3]), m[4]),
  },
  {
    // Monday 5th, lundi 5 (no month: the next 5th that falls on a Monday, else the next 5th)
    regex: new RegExp(`${START}${WEEKDAY}\\s*,?\\s*(?:the\\s+)?(\\d{1,2})${ORDINAL}${END}(?![:.h]\\d)`, 'u'),
    build: (m) => (reference) => nextDayOfMonth(reference, Number(m[2]), WEEKDAYS[m[1]!]!),
  },
  {
    // Monday (the next one after the message was written)
    regex: new RegExp(`${START}${FULL_WEEKDAY}${END}`, 'u'),
    build: (m) => (reference) => nextWeekday(reference, WEEKDAYS[m[1]!]!),
  },
  {
    regex: new RegExp(`${START}(tomorrow|demain)${END}`, 'u'),
    build: () => (reference) => addDays(startOfDay(reference), 1),
  },
];

export function parseReturnDate(text: string, reference: Date): Date | null {
  const normalized = text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ');
  for (const triggers of [RETURN_TRIGGERS, UNTIL_TRIGGERS]) {
    triggers.lastIndex = 0;
    for (let trigger = triggers.exec(normalized); trigger; trigger = triggers.exec(normalized)) {
      const from = trigger.index + trigger[0].length;
      const found = firstDateIn(normalized.slice(from, from + WINDOW_CHARS));
      const date = found?.resolve(reference) ?? null;
      if (date && isBelievable(date, reference)) return date;
    }
  }
  return null;
}

/** The earliest date expression in the window; at the same place, the longest (most specific). */
function firstDateIn(window: string): DateMatch | null {
  let best: DateMatch | null = null;
  for (const pattern of PATTERNS) {
    const m = pattern.regex.exec(window);
    if (!m) continue;
    const candidate: DateMatch = { index: m.index, length: m[0].length, resolve: pattern.build(m) };
    if (
      !best ||
      candidate.index < best.index ||
      (candidate.index === best.index && candidate.length > best.length)
    ) {
      best = candidate;
    }
  }
  return best;
}

function isBelievable(date: Date, reference: Date): boolean {
  const today = startOfDay(reference).getTime();
  return date.getTime() >= today && date.getTime() <= today + MAX_AHEAD_DAYS * DAY_MS;
}

function calendarDate(year: number, month: number, day: number): Date | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  // 31 February rolls into March: refuse it.
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

/**
 * Without a year, the first such day on or after the message; a day shortly before it is a stale
 * auto-reply (null), while one months before means next year ("4 janvier" written in December).
 */
function withYear(reference: Date, month: number, day: number, yearText: string | undefined): Date | null {
  if (yearText) {
    const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
    return calendarDate(year, month, day);
  }
  const year = reference.getUTCFullYear();
  const thisYear = calendarDate(year, month, day);
  if (!thisYear) return null;
  const today = startOfDay(reference).getTime();
  if (thisYear.getTime() >= today) return thisYear;
  if (today - thisYear.getTime() > 60 * DAY_MS) return calendarDate(year + 1, month, day);
  return null;
}

function nextDayOfMonth(reference: Date, day: number, weekday: number): Date | null {
  const today = startOfDay(reference);
  let fallback: Date | null = null;
  // Someone writing "Monday 5th" means a 5th within weeks; if none of the next three is a Monday,
  // the weekday is a slip and the nearest 5th wins.
  for (let offset = 0; offset < 3; offset++) {
    const monthIndex = today.getUTCMonth() + offset;
    const candidate = calendarDate(
      today.getUTCFullYear() + Math.floor(monthIndex / 12),
      (monthIndex % 12) + 1,
      day,
    );
    if (!candidate || candidate.getTime() < today.getTime()) continue;
    if (isoWeekday(candidate) === weekday) return candidate;
    fallback ??= candidate;
  }
  return fallback;
}

function nextWeekday(reference: Date, weekday: number): Date {
  const today = startOfDay(reference);
  const ahead = (weekday - isoWeekday(today) + 7) % 7 || 7;
  return addDays(today, ahead);
}

function isoWeekday(date: Date): number {
  return date.getUTCDay() === 0 ? 7 : date.getUTCDay();
}

function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}
