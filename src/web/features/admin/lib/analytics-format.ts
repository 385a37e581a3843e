/*
 * Formatting for the operator's analytics screens: chart tick labels per bucket size, waits, byte
 * sizes, rates. Times are UTC, like the buckets the server counts in.
 */

const HOUR_S = 3600;

/** A bucket's tick label: "14:00" for hours, "Tue 18:00" for six-hour blocks, "3 Mar" for days. */
export function formatBucket(at: string, bucketSeconds: number): string {
  const date = new Date(at);
  if (bucketSeconds <= HOUR_S) {
    return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(
      date,
    );
  }
  if (bucketSeconds < 24 * HOUR_S) {
    return new Intl.DateTimeFormat('en-GB', {
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
    }).format(date);
  }
  return formatDayLabel(at);
}

/** "3 Mar" for a day (`2026-03-03` or an ISO time). */
export function formatDayLabel(day: string): string {
  const date = new Date(day.length === 10 ? `${day}T00:00:00Z` : day);
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
}

/** A wait in seconds as people say it: "0.4 s", "12 s", "3.5 min", "2.1 h"; a dash for none. */
export function formatWait(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < HOUR_S) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / HOUR_S).toFixed(1)} h`;
}

/** A share (0–1) as a percentage with one decimal; a dash when there is nothing to divide. */
export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.001 ? 2 : 1)} %`;
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** Bytes in 1024 steps: "812 kB", "2.4 GB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 || value >= 100 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}

/** An age in seconds: "45 s", "12 min", "3 h", "4 d". */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < HOUR_S) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * HOUR_S) return `${Math.round(seconds / HOUR_S)} h`;
  return `${Math.round(seconds / (24 * HOUR_S))} d`;
}
