import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { SEND_CAMPAIGN_TEST_RUN_JOB, sendNextTestRunStep } from './test-run.service';

/** Sends the next due step of a test run, then queues itself for the step after (shared/test-runs.ts). */
export const sendCampaignTestRunJob = defineJob({
  name: SEND_CAMPAIGN_TEST_RUN_JOB,
  description: "Sends the next step of a campaign test run to the user's own address.",
  payload: z.object({ testRunId: z.uuid() }),
  async run({ services, log, payload }) {
    const { db, queue, env, secrets, devMailbox } = services;
    const result = await sendNextTestRunStep({
      db,
      queue,
      log,
      appUrl: env.APP_URL,
      encryptionKey: secrets.encryptionKey,
      network: env.SENDER_NETWORK,
      // As the dispatcher: the development mailbox of this process, else the one the web process runs.
      devMailboxPort: devMailbox?.port ?? (env.SMTP_URL ? null : env.DEV_MAILBOX_PORT),
      testRunId: payload.testRunId,
    });
    if (result.sent + result.failed > 0)
      log.info({ ...result, testRunId: payload.testRunId }, 'test run step');
  },
});
