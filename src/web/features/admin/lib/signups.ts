export interface DayCount {
  day: string;
  count: number;
}

export const SIGNUP_WINDOW_DAYS = 30;

const DAY_MS = 86_400_000;

function toDayKey(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Accepts `2025-06-01`, or a full ISO timestamp, and keeps the UTC calendar day. */
function normaliseDay(day: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  const parsed = new Date(day);
  return Number.isNaN(parsed.getTime()) ? null : toDayKey(parsed);
}

/**
 * The server lists only the days that had sign-ups; the chart needs every day of the window, oldest first,
 * with zeros in the gaps. The window ends today (UTC) or on the latest reported day if that is later, so a
 * server clock ahead of the browser never hides the newest bar.
 */
export function fillSignupDays(points: DayCount[], now = new Date(), days = SIGNUP_WINDOW_DAYS): DayCount[] {
  const counts = new Map<string, number>();
  for (const point of points) {
    const key = normaliseDay(point.day);
    if (key) counts.set(key, (counts.get(key) ?? 0) + point.count);
  }
  let end = toDayKey(now);
  for (const key of counts.keys()) if (key > end) end = key;
  const endMs = Date.parse(`${end}T00:00:00Z`);
  const result: DayCount[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const key = toDayKey(new Date(endMs - i * DAY_MS));
    result.push({ day: key, count: counts.get(key) ?? 0 });
  }
  return result;
}

export interface SignupSummary {
  total: number;
  max: number;
  busiest: DayCount | null;
}

export function summariseSignups(series: DayCount[]): SignupSummary {
  let total = 0;
  let busiest: DayCount | null = null;
  for (const point of series) {
    total += point.count;
    if (point.count > 0 && (!busiest || point.count > busiest.count)) busiest = point;
  }
  return { total, max: busiest?.count ?? 0, busiest };
}

/** A short axis label, e.g. "3 Jun", read in UTC like the day keys. */
export function formatDayShort(day: string): string {
  return new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

export function formatDayLong(day: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above `value` (at least 1): a round top for the chart's scale. */
export function niceCeiling(value: number): number {
  if (!Number.isFinite(value) || value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}
