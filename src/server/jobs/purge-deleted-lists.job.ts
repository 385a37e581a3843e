import { z } from 'zod';
import type { Database } from '../db/client';
import { purgeExpiredLists } from '../features/lists/lists.service';

export const purgeDeletedListsJob = {
  name: 'purge-deleted-lists',
  payload: z.object({}),
  /** Daily: lists in the recycle bin for more than 30 days are deleted for good, with their contacts. */
  cron: '25 3 * * *',
} as const;

/** Safe to run twice: deleting what has expired is idempotent. */
export async function purgeDeletedLists({ db }: { db: Database }): Promise<{ lists: number }> {
  return { lists: await purgeExpiredLists({ db }) };
}
