import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import {
  ARCHIVE_AFTER_DAYS,
  archiveFinishedOutbox,
  ensureOutboxArchivePartitions,
  expireOutboxArchive,
} from './outbox-archive.service';

/** Safe to run twice at once: each batch skips the rows the other holds; made or dropped months are skipped. */
export const archiveOutboxJob = defineJob({
  name: 'archive-outbox',
  description: `Moves messages finished over ${ARCHIVE_AFTER_DAYS} days ago to the outbox archive and drops archived months past retention.`,
  payload: z.object({}),
  /** Hourly: each run moves an hour's worth of finished messages, not a day's in one burst. */
  cron: '17 * * * *',
  async run({ services, log }) {
    const made = await ensureOutboxArchivePartitions({ db: services.db });
    if (made.length > 0) log.info({ made }, 'made outbox archive partitions');
    const run = await archiveFinishedOutbox({ db: services.db });
    if (run.moved > 0) log.info(run, 'archived finished outbox messages');
    const months = services.env.OUTBOX_RETENTION_MONTHS;
    if (months === 0) return;
    const expired = await expireOutboxArchive({ db: services.db, retentionMonths: months });
    if (expired.dropped.length + expired.defaultRows > 0) log.info(expired, 'expired archived messages');
    if (expired.busy.length > 0)
      log.warn(expired, 'outbox archive partitions past retention left for the next run');
  },
});
