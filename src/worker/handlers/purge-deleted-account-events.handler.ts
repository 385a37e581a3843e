import type { FastifyBaseLogger } from 'fastify';
import { purgeDeletedAccountEvents } from '../../server/jobs/purge-deleted-account-events.job';
import type { WorkerServices } from '../services';

export async function handlePurgeDeletedAccountEvents(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const result = await purgeDeletedAccountEvents({ db: input.services.db });
  if (result.events > 0) input.log.info(result, 'deleted events written after their account was deleted');
}
