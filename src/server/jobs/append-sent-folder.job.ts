import { z } from 'zod';
import { APPEND_SENT_FOLDER_JOB } from '../features/sending/sent-folder';

/**
 * Copies one account's sent mail to its Sent folder over IMAP (sent-folder.ts). Queued by the
 * dispatcher's recorder with the account as singletonKey (policy stately: one queued, one running).
 */
export const appendSentFolderJob = {
  name: APPEND_SENT_FOLDER_JOB,
  payload: z.object({ senderAccountId: z.uuid() }),
  /** 100 APPENDs over one connection with 60 s socket timeouts; past this it is stuck. */
  expireInSeconds: 15 * 60,
  /** Accounts one worker process copies for at once (they wait on remote servers). */
  concurrency: 4,
} as const;

/** Every 10 minutes: accounts with copies still waiting (a failed or missed job) get another. */
export const appendSentFoldersJob = {
  name: 'append-sent-folders',
  payload: z.object({}),
  cron: '*/10 * * * *',
} as const;
