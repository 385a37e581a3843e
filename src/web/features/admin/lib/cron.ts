/**
 * A cron line in words for the simple schedules our jobs use ("25 3 * * *" → "Daily at 03:25 UTC");
 * anything else is shown as it is.
 */
export function describeCron(cron: string): string {
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) return cron;
  const [minute, hour, day, month, weekday] = parts as [string, string, string, string, string];
  const rest = `${day} ${month} ${weekday}`;
  if (rest !== '* * *' || !/^\d+$/.test(minute)) return cron;
  const mm = minute.padStart(2, '0');
  if (hour === '*') return `Hourly at :${mm}`;
  if (/^\d+$/.test(hour)) return `Daily at ${hour.padStart(2, '0')}:${mm} UTC`;
  return cron;
}
