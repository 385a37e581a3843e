import { AppError } from '@server/lib/errors';
import { lastReadingPerZone } from '@server/lib/last-reading-per-zone';
import type { SenderAccountRow } from './sender-transport';

/*
 * An account's day and its cap for that day. "Today" is the account's own time zone's date: an account in
 * Lagos starts a fresh 300 at midnight in Lagos, whatever the server's clock zone.
 */

const DAY_MS = 86_400_000;

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  return format;
}

/** Whether Intl knows this IANA time zone (Africa/Lagos, UTC…). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    dateFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function assertValidTimeZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) {
    const message = `Unknown time zone "${timeZone.slice(0, 64)}". Use a name like Africa/Lagos or Europe/London.`;
    throw new AppError('validation', message, { errors: [{ path: 'timeZone', message }] });
  }
}

/** A batch's one instant is read once per zone (formatToParts costs ~10 µs). */
const localDateAt = lastReadingPerZone((atMs, timeZone) => readLocalDate(new Date(atMs), timeZone));

/** The calendar date (YYYY-MM-DD) at `at` in `timeZone`. */
export function accountLocalDate(at: Date, timeZone: string): string {
  return localDateAt(at.getTime(), timeZone);
}

function readLocalDate(at: Date, timeZone: string): string {
  let year = '';
  let month = '';
  let day = '';
  // The first of each, as the formatter gives them.
  for (const part of dateFormat(timeZone).formatToParts(at)) {
    if (part.type === 'year') year ||= part.value;
    else if (part.type === 'month') month ||= part.value;
    else if (part.type === 'day') day ||= part.value;
  }
  return `${year}-${month}-${day}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

type CapFields = Pick<
  SenderAccountRow,
  'dailyCap' | 'warmupEnabled' | 'warmupStart' | 'warmupIncrement' | 'warmupStartedOn' | 'timeZone'
>;

/**
 * Today's cap: the daily cap, or while warming up min(daily cap, start + increment × days since the ramp
 * began). `at` is a moment (its date is taken in the account's zone) or an account-local YYYY-MM-DD.
 */
export function effectiveDailyCap(row: CapFields, at: Date | string): number {
  if (!row.warmupEnabled) return row.dailyCap;
  const today = typeof at === 'string' ? at : accountLocalDate(at, row.timeZone);
  const days = row.warmupStartedOn ? Math.max(0, daysBetween(row.warmupStartedOn, today)) : 0;
  return Math.max(1, Math.min(row.dailyCap, row.warmupStart + row.warmupIncrement * days));
}

/** Sends counted for the account's today (the counter of an earlier day no longer counts). */
export function sentTodayOf(
  row: Pick<SenderAccountRow, 'sendsDay' | 'sendsToday' | 'timeZone'>,
  at: Date,
): number {
  return row.sendsDay === accountLocalDate(at, row.timeZone) ? row.sendsToday : 0;
}
