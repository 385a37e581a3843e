/*
 * A five-field cron expression in words, for the schedules the application declares: every minute, every
 * N minutes or hours, hourly at a minute, daily or weekly at a time. Anything else is answered as the
 * expression itself rather than guessed at. Schedules run in UTC.
 */

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const number = (field: string, max: number): number | null => {
  if (!/^\d{1,2}$/.test(field)) return null;
  const value = Number(field);
  return value <= max ? value : null;
};

const step = (field: string): number | null => {
  const match = /^\*\/(\d{1,2})$/.exec(field);
  return match ? Number(match[1]) : null;
};

const plural = (n: number, unit: string) => (n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`);
const pad = (n: number) => String(n).padStart(2, '0');

export function describeCron(cron: string): string {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return cron;
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  if (dayOfMonth !== '*' || month !== '*') return cron;
  const weekday = dayOfWeek === '*' ? null : number(dayOfWeek, 7);
  if (dayOfWeek !== '*' && weekday === null) return cron;
  const minuteValue = number(minute, 59);
  const hourValue = number(hour, 23);

  if (weekday === null) {
    if (minute === '*' && hour === '*') return 'Every minute';
    const minuteStep = step(minute);
    if (minuteStep !== null && hour === '*') return plural(minuteStep, 'minute');
    if (minuteValue !== null && hour === '*') return `Every hour at minute ${minuteValue}`;
    const hourStep = step(hour);
    if (minuteValue !== null && hourStep !== null)
      return `${plural(hourStep, 'hour')} at minute ${minuteValue}`;
  }
  if (minuteValue === null || hourValue === null) return cron;
  const time = `${pad(hourValue)}:${pad(minuteValue)} UTC`;
  return weekday === null ? `Every day at ${time}` : `Every ${DAYS[weekday % 7]} at ${time}`;
}
