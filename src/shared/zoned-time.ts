/*
 * Dates people read in a campaign's own time zone ("Tue 1 Dec, 08:00 (Lagos)"), the same on the server
 * (event details) and in the browser (contacts, timeline, replies), whatever zone the reader's machine is in.
 */

/** The city of an IANA zone as people write it: Africa/Dar_es_Salaam → "Dar es Salaam". */
export function zoneCity(timeZone: string): string {
  const last = timeZone.split('/').at(-1) ?? timeZone;
  return last.replaceAll('_', ' ');
}

function knownZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** "Tue 1 Dec, 08:00 (Lagos)": weekday, day, month and 24-hour time in `timeZone`, then its city. */
export function formatZonedDateTime(at: Date | string, timeZone: string): string {
  const zone = knownZone(timeZone);
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(typeof at === 'string' ? new Date(at) : at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')} (${zoneCity(zone)})`;
}

/** An out-of-office pause's end as the contact list, timeline and replies show it. */
export function formatPausedUntil(at: Date | string, timeZone: string): string {
  return `paused until ${formatZonedDateTime(at, timeZone)}`;
}
