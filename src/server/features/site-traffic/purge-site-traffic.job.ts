import type { Database } from '@server/db/client';
import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { purgeOldPageViews } from './site-traffic.service';

/** Safe to run twice: deleting what has expired is idempotent. */
export async function purgeSiteTraffic({ db }: { db: Database }): Promise<{ views: number }> {
  return purgeOldPageViews({ db });
}

export const purgeSiteTrafficJob = defineJob({
  name: 'purge-site-traffic',
  description: "Deletes page views older than 90 days and past days' visitor salts.",
  payload: z.object({}),
  cron: '35 3 * * *',
  async run({ services, log }) {
    const result = await purgeSiteTraffic({ db: services.db });
    if (result.views > 0) log.info(result, 'deleted page views past their retention');
  },
});
