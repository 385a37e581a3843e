import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import {
  APPEND_SENT_FOLDER_JOB,
  appendPendingSentCopies,
  queueSentFolderAppends,
  queueWaitingSentFolderAppends,
} from './sent-folder';

/**
 * Copies one account's sent mail to its Sent folder over IMAP (sent-folder.ts). Queued by the
 * dispatcher's recorder with the account as singletonKey (policy stately: one queued, one running).
 * Queues itself again while more copies wait. Safe to run twice.
 */
export const appendSentFolderJob = defineJob({
  name: APPEND_SENT_FOLDER_JOB,
  description: "Copies one mailbox's sent campaign mail to its Sent folder over IMAP.",
  payload: z.object({ senderAccountId: z.uuid() }),
  // One queued and one running per account (singletonKey): copies arriving while a job runs still get
  // a job after it, and two never APPEND the same rows at once.
  queue: { policy: 'stately' },
  /** Accounts one worker process copies for at once (they wait on remote servers). */
  concurrency: 4,
  /** 100 APPENDs over one connection with 60 s socket timeouts; past this it is stuck. */
  sendOptions: { expireInSeconds: 15 * 60 },
  async run({ services, log, payload }) {
    const { db, env, secrets, queue } = services;
    const result = await appendPendingSentCopies({
      db,
      log,
      accountId: payload.senderAccountId,
      encryptionKey: secrets.encryptionKey,
      network: env.SENDER_NETWORK,
    });
    if (result.appended > 0) log.info(result, 'copied sent mail to the Sent folder');
    if (result.remaining) await queueSentFolderAppends(queue, [payload.senderAccountId]);
  },
});

/** Every 10 minutes: accounts with copies still waiting (a failed or missed job) get another. */
export const appendSentFoldersJob = defineJob({
  name: 'append-sent-folders',
  description: 'Queues Sent-folder copies still waiting after a failed or missed copy job.',
  payload: z.object({}),
  cron: '*/10 * * * *',
  async run({ services, log }) {
    const accounts = await queueWaitingSentFolderAppends({ db: services.db, queue: services.queue });
    if (accounts > 0) log.info({ accounts }, 'queued Sent-folder copies still waiting');
  },
});
