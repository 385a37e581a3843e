import type { FastifyBaseLogger } from 'fastify';
import { openImapClient } from '../../server/features/sender-accounts/sender-transport';
import { IDLE_POLL_MIN_GAP_MS, pollSenderMailboxNow } from '../../server/jobs/poll-sender-mailbox.job';
import type { WorkerServices } from '../services';

export async function handlePollSenderMailbox(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: { senderAccountId: string; trigger?: 'schedule' | 'idle' };
}): Promise<void> {
  const { db, env, secrets, mailer } = input.services;
  if (!env || !secrets || !mailer) {
    throw new Error('poll-sender-mailbox needs the environment, the encryption key and the system mailer');
  }
  const result = await pollSenderMailboxNow({
    db,
    log: input.log,
    senderAccountId: input.payload.senderAccountId,
    pollMinutes: env.IMAP_POLL_MINUTES,
    minGapMs: input.payload.trigger === 'idle' ? IDLE_POLL_MIN_GAP_MS : undefined,
    // The SSRF guard and the password's decryption happen here, on every connection.
    openImapClient: (account) =>
      openImapClient({ account, encryptionKey: secrets.encryptionKey, network: env.SENDER_NETWORK }),
    senderHealth: { mailer, appUrl: env.APP_URL },
  });
  if (result && result.fetched > 0) input.log.info(result, 'mailbox polled');
}
