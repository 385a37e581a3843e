import { z } from 'zod';
import type { Database } from '../db/client';
import { purgeExpiredDirectoryContacts } from '../features/recycle-bin/recycle-bin.service';

export const purgeDeletedDirectoryContactsJob = {
  name: 'purge-deleted-directory-contacts',
  payload: z.object({}),
  /** Daily: directory records in the recycle bin for more than 30 days are deleted for good. */
  cron: '30 3 * * *',
} as const;

/** Safe to run twice: deleting what has expired is idempotent. */
export async function purgeDeletedDirectoryContacts({
  db,
}: {
  db: Database;
}): Promise<{ directoryContacts: number }> {
  return { directoryContacts: await purgeExpiredDirectoryContacts({ db }) };
}
