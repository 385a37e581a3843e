import type { FastifyBaseLogger } from 'fastify';
import { sendNextTestRunStep } from '../../server/features/campaigns/test-run.service';
import type { WorkerServices } from '../services';

/** The next due step of a test run; the job queues itself again for the step after. */
export async function handleSendCampaignTestRun(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: { testRunId: string };
}): Promise<void> {
  const { db, queue, env, secrets, devMailbox } = input.services;
  if (!env || !secrets)
    throw new Error('send-campaign-test-run needs the environment and the encryption key');
  const result = await sendNextTestRunStep({
    db,
    queue,
    log: input.log,
    appUrl: env.APP_URL,
    encryptionKey: secrets.encryptionKey,
    network: env.SENDER_NETWORK,
    // As the dispatcher: the development mailbox of this process, else the one the web process runs.
    devMailboxPort: devMailbox?.port ?? (env.SMTP_URL ? null : env.DEV_MAILBOX_PORT),
    testRunId: input.payload.testRunId,
  });
  if (result.sent + result.failed > 0)
    input.log.info({ ...result, testRunId: input.payload.testRunId }, 'test run step');
}
