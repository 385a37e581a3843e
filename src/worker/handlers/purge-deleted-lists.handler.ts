import type { FastifyBaseLogger } from 'fastify';
import { purgeDeletedLists } from '../../server/jobs/purge-deleted-lists.job';
import type { WorkerServices } from '../services';

export async function handlePurgeDeletedLists(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const result = await purgeDeletedLists({ db: input.services.db });
  if (result.lists > 0) input.log.info(result, 'purged lists from the recycle bin');
}
