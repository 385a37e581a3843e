import type { Database } from '@server/db/client';
import { defineJob } from '@server/jobs/define-job';
import { now } from '@server/lib/clock';
import { z } from 'zod';
import {
  rollUpMissingTrafficDays,
  rollUpMissingTrafficHours,
  rollUpTrafficDay,
} from './site-traffic.service';
import { utcDay } from './visitor';

/** Safe to run twice: a day's roll-up is replaced whole. */
export async function rollUpSiteTraffic({ db }: { db: Database }): Promise<{ days: number; hours: number }> {
  const today = Date.parse(`${utcDay(now())}T00:00:00Z`);
  await rollUpTrafficDay({ db, day: utcDay(new Date(today - 86_400_000)) });
  const missing = await rollUpMissingTrafficDays({ db, from: utcDay(new Date(today - 30 * 86_400_000)) });
  const hours = await rollUpMissingTrafficHours({ db });
  return { days: missing + 1, hours };
}

export const rollUpSiteTrafficJob = defineJob({
  name: 'roll-up-site-traffic',
  description:
    "Rolls up yesterday's website traffic (again), any day not rolled up yet and today's finished hours.",
  payload: z.object({}),
  /** Hourly: a beacon can land just after midnight. */
  cron: '7 * * * *',
  async run({ services, log }) {
    log.debug(await rollUpSiteTraffic({ db: services.db }), 'rolled up website traffic');
  },
});
