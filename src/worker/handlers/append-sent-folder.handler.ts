import type { FastifyBaseLogger } from 'fastify';
import {
  appendPendingSentCopies,
  queueSentFolderAppends,
  queueWaitingSentFolderAppends,
} from '../../server/features/sending/sent-folder';
import type { WorkerServices } from '../services';

/** One account's waiting copies; queues itself again while more wait. Safe to run twice. */
export async function handleAppendSentFolder(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: { senderAccountId: string };
}): Promise<void> {
  const { db, env, secrets, queue } = input.services;
  if (!env || !secrets) throw new Error('append-sent-folder needs the environment and the encryption key');
  const result = await appendPendingSentCopies({
    db,
    log: input.log,
    accountId: input.payload.senderAccountId,
    encryptionKey: secrets.encryptionKey,
    network: env.SENDER_NETWORK,
  });
  if (result.appended > 0) input.log.info(result, 'copied sent mail to the Sent folder');
  if (result.remaining) await queueSentFolderAppends(queue, [input.payload.senderAccountId]);
}

export async function handleAppendSentFolders(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
}): Promise<void> {
  const accounts = await queueWaitingSentFolderAppends({
    db: input.services.db,
    queue: input.services.queue,
  });
  if (accounts > 0) input.log.info({ accounts }, 'queued Sent-folder copies still waiting');
}
