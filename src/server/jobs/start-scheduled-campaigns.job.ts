import { z } from 'zod';

export const startScheduledCampaignsJob = {
  name: 'start-scheduled-campaigns',
  payload: z.object({}),
  /** Every minute: a campaign scheduled for 09:00 starts within a minute of it. */
  cron: '* * * * *',
} as const;
