import { numberFormat } from '@shared/number-format';

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday". */
export function formatRelative(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (abs >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(Math.round(seconds / 60), 'minute');
}

export function formatNumber(value: number): string {
  return numberFormat().format(value);
}

/**
 * An ISO 8601 date or timestamp inside a sentence ("2026-12-01", "2026-12-01T07:00:00.000Z"), but not one
 * that is part of a file name, a path or an id ("contacts-2026-11-27.csv", "/archive/2026-11-27/").
 */
const ISO_IN_TEXT =
  /(?<![\w./-])(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w/-]|\.\w)/g;

/**
 * Rewrites machine dates that reach a message (a server's text, an error) the way people read them:
 * "paused until 2026-12-01T07:00:00.000Z" becomes "paused until 1 Dec 2026, 08:00" in the reader's zone.
 * A bare date stays a date (no time is invented), read as that calendar day.
 */
export function humanizeDates(text: string, locale?: string, timeZone?: string): string {
  return text.replace(ISO_IN_TEXT, (match, day: string, time: string | undefined) => {
    const date = new Date(time ? match : `${day}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) return match;
    const options: Intl.DateTimeFormatOptions = time
      ? { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }
      : { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
    return new Intl.DateTimeFormat(locale, options).format(date);
  });
}
