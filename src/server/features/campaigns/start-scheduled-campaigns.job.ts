import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { startScheduledCampaigns } from './launch.service';

/** Scheduled campaigns whose start time has come: audience copied in, step 1 queued. */
export const startScheduledCampaignsJob = defineJob({
  name: 'start-scheduled-campaigns',
  description: 'Starts the campaigns whose scheduled start time has come.',
  payload: z.object({}),
  /** Every minute: a campaign scheduled for 09:00 starts within a minute of it. */
  cron: '* * * * *',
  async run({ services, log }) {
    const { db, queue, env } = services;
    const started = await startScheduledCampaigns({
      db,
      queue,
      appUrl: env.APP_URL,
      log,
      dispatchConcurrency: env.DISPATCH_CONCURRENCY,
    });
    if (started.length > 0) log.info({ started }, 'started scheduled campaigns');
  },
});
