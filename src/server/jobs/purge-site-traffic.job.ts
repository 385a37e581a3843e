import { z } from 'zod';
import type { Database } from '../db/client';
import { purgeOldPageViews } from '../features/site-traffic/site-traffic.service';

export const purgeSiteTrafficJob = {
  name: 'purge-site-traffic',
  payload: z.object({}),
  /** Daily: raw page views older than 90 days are deleted, and past days' visitor salts. */
  cron: '35 3 * * *',
} as const;

/** Safe to run twice: deleting what has expired is idempotent. */
export async function purgeSiteTraffic({ db }: { db: Database }): Promise<{ views: number }> {
  return purgeOldPageViews({ db });
}
