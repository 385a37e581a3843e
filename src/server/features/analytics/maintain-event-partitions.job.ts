import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { ensureEventPartitions, expireEvents, PARTITION_MONTHS_AHEAD } from './event-partitions.service';

/** Safe to run twice: a month made or dropped is skipped the next time. */
export const maintainEventPartitionsJob = defineJob({
  name: 'maintain-event-partitions',
  description: "Makes the coming months' event partitions and drops the months past event retention.",
  payload: z.object({}),
  /**
   * Daily: the next months' partitions exist weeks before their first event (a missed run or two costs
   * nothing), and a month past retention goes within a day of its turn.
   */
  cron: '50 2 * * *',
  async run({ services, log }) {
    const made = await ensureEventPartitions({ db: services.db, ahead: PARTITION_MONTHS_AHEAD });
    if (made.length > 0) log.info({ made }, 'made event partitions');
    const months = services.env.EVENT_RETENTION_MONTHS;
    if (months === 0) return;
    const result = await expireEvents({ db: services.db, retentionMonths: months });
    if (result.dropped.length + result.defaultRows > 0) log.info(result, 'expired events past retention');
    if (result.waiting.length + result.busy.length > 0) {
      log.warn(
        result,
        'event partitions past retention left for the next run (unread by the platform roll-up, or busy)',
      );
    }
  },
});
