import { z } from 'zod';
import type { Database } from '../db/client';
import { rollUpMissingTrafficDays, rollUpTrafficDay } from '../features/site-traffic/site-traffic.service';
import { utcDay } from '../features/site-traffic/visitor';
import { now } from '../lib/clock';

export const rollUpSiteTrafficJob = {
  name: 'roll-up-site-traffic',
  payload: z.object({}),
  /** Hourly: yesterday again (a beacon can land just after midnight) and any day not rolled up yet. */
  cron: '7 * * * *',
} as const;

/** Safe to run twice: a day's roll-up is replaced whole. */
export async function rollUpSiteTraffic({ db }: { db: Database }): Promise<{ days: number }> {
  const today = Date.parse(`${utcDay(now())}T00:00:00Z`);
  await rollUpTrafficDay({ db, day: utcDay(new Date(today - 86_400_000)) });
  const missing = await rollUpMissingTrafficDays({ db, from: utcDay(new Date(today - 30 * 86_400_000)) });
  return { days: missing + 1 };
}
