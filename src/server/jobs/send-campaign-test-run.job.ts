import { z } from 'zod';

/** Sends the next due step of a test run, then queues itself for the step after (shared/test-runs.ts). */
export const sendCampaignTestRunJob = {
  name: 'send-campaign-test-run',
  payload: z.object({ testRunId: z.uuid() }),
} as const;
