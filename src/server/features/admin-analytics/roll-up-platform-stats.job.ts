import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { rollUpPlatformStats } from './platform-rollup.service';

export const rollUpPlatformStatsJob = defineJob({
  name: 'roll-up-platform-stats',
  description: 'Folds new email events into the hourly figures of System Analytics and Analytics.',
  payload: z.object({}),
  /** Every minute: the screens count the events after the roll-up live, so a short tail keeps them cheap. */
  cron: '* * * * *',
  async run({ services, log }) {
    const result = await rollUpPlatformStats({ db: services.db });
    if (result.batches > 1) log.info(result, 'rolled up a backlog of events');
  },
});
