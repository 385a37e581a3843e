import type { Database } from '@server/db/client';
import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { purgeExpiredLists } from './lists.service';

/** Safe to run twice: deleting what has expired is idempotent. */
export async function purgeDeletedLists({ db }: { db: Database }): Promise<{ lists: number }> {
  return { lists: await purgeExpiredLists({ db }) };
}

export const purgeDeletedListsJob = defineJob({
  name: 'purge-deleted-lists',
  description: 'Deletes lists that have been in the recycle bin for more than 30 days, with their contacts.',
  payload: z.object({}),
  /** Daily: lists in the recycle bin for more than 30 days are deleted for good, with their contacts. */
  cron: '25 3 * * *',
  async run({ services, log }) {
    const result = await purgeDeletedLists({ db: services.db });
    if (result.lists > 0) log.info(result, 'purged lists from the recycle bin');
  },
});
