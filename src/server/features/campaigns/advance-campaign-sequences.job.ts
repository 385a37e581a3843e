import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { advanceCampaignSequences } from './sequencing';

/** Queues due steps and completes finished campaigns (see sequencing.ts). Safe to run twice. */
export const advanceCampaignSequencesJob = defineJob({
  name: 'advance-campaign-sequences',
  description: 'Queues the campaign steps that have come due and completes finished campaigns.',
  /** A launch names its campaign (handled first, at once); the minute cron covers every campaign. */
  payload: z.object({ campaignId: z.uuid().optional() }),
  cron: '* * * * *',
  async run({ services, log, payload }) {
    const { db, queue, env } = services;
    const summary = await advanceCampaignSequences({
      db,
      queue,
      appUrl: env.APP_URL,
      log,
      campaignId: payload.campaignId,
      dispatchConcurrency: env.DISPATCH_CONCURRENCY,
    });
    if (summary.queued + summary.skipped + summary.completedContacts + summary.completedCampaigns.length > 0)
      log.info(summary, 'advanced campaign sequences');
  },
});
