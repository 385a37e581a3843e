import type { FastifyBaseLogger } from 'fastify';
import { enqueueDueMailboxPolls } from '../../server/jobs/poll-sender-mailboxes.job';
import type { WorkerServices } from '../services';

export async function handlePollSenderMailboxes(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { db, queue, env } = input.services;
  if (!env) throw new Error('poll-sender-mailboxes needs the environment');
  const result = await enqueueDueMailboxPolls({ db, queue, pollMinutes: env.IMAP_POLL_MINUTES });
  if (result.enqueued > 0) input.log.debug(result, 'mailbox polls enqueued');
}
