import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { wakeDispatchers } from './outbox.service';
import { recoverExpiredLeases, releaseStrayHolds } from './outbox-recovery';

/**
 * Requeues messages whose worker died holding them, and releases messages held for a campaign that is
 * no longer paused (outbox-recovery.ts).
 */
export const recoverOutboxLeasesJob = defineJob({
  name: 'recover-outbox-leases',
  description: 'Puts back in the queue the messages whose sending worker died holding them.',
  payload: z.object({}),
  cron: '* * * * *',
  async run({ services, log }) {
    const released = await releaseStrayHolds({ db: services.db });
    if (released > 0) log.warn({ released }, 'released held messages of campaigns that are not paused');
    const result = await recoverExpiredLeases({ db: services.db });
    if (result.requeued === 0 && released === 0) return;
    if (result.requeued > 0) log.warn(result, 'recovered messages from expired leases');
    await wakeDispatchers({ queue: services.queue, parallelism: services.env.DISPATCH_CONCURRENCY });
  },
});
