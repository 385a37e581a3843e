import type { Database } from '@server/db/client';
import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { purgeExpiredDirectoryContacts } from './recycle-bin.service';

/** Safe to run twice: deleting what has expired is idempotent. */
export async function purgeDeletedDirectoryContacts({
  db,
}: {
  db: Database;
}): Promise<{ directoryContacts: number }> {
  return { directoryContacts: await purgeExpiredDirectoryContacts({ db }) };
}

export const purgeDeletedDirectoryContactsJob = defineJob({
  name: 'purge-deleted-directory-contacts',
  description: 'Deletes for good the directory records in the recycle bin for more than 30 days.',
  payload: z.object({}),
  cron: '30 3 * * *',
  async run({ services, log }) {
    const result = await purgeDeletedDirectoryContacts({ db: services.db });
    if (result.directoryContacts > 0) log.info(result, 'purged directory records from the recycle bin');
  },
});
