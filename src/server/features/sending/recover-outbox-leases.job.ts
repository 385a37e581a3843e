import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { wakeDispatchers } from './outbox.service';
import { recoverExpiredLeases } from './outbox-recovery';

/** Requeues messages whose worker died holding them (outbox-recovery.ts). */
export const recoverOutboxLeasesJob = defineJob({
  name: 'recover-outbox-leases',
  description: 'Puts back in the queue the messages whose sending worker died holding them.',
  payload: z.object({}),
  cron: '* * * * *',
  async run({ services, log }) {
    const result = await recoverExpiredLeases({ db: services.db });
    if (result.requeued === 0) return;
    log.warn(result, 'recovered messages from expired leases');
    await wakeDispatchers({ queue: services.queue, parallelism: services.env.DISPATCH_CONCURRENCY });
  },
});
