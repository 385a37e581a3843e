import { z } from 'zod';

export const advanceCampaignSequencesJob = {
  name: 'advance-campaign-sequences',
  /** A launch names its campaign (handled first, at once); the minute cron covers every campaign. */
  payload: z.object({ campaignId: z.uuid().optional() }),
  cron: '* * * * *',
} as const;
