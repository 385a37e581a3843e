import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { purgeExpiredOwnedItems } from './recycle-bin.service';

export const purgeRecycleBinJob = defineJob({
  name: 'purge-recycle-bin',
  description:
    "Deletes for good users' campaigns, newsletters and templates in the recycle bin for more than 30 days.",
  payload: z.object({}),
  cron: '40 3 * * *',
  // Safe to run twice: deleting what has expired is idempotent.
  async run({ services, log }) {
    const result = await purgeExpiredOwnedItems({ db: services.db });
    if (result.campaigns + result.newsletters + result.templates > 0)
      log.info(result, 'purged campaigns, newsletters and templates from the recycle bin');
  },
});
