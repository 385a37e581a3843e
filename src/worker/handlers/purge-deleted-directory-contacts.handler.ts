import type { FastifyBaseLogger } from 'fastify';
import { purgeDeletedDirectoryContacts } from '../../server/jobs/purge-deleted-directory-contacts.job';
import type { WorkerServices } from '../services';

export async function handlePurgeDeletedDirectoryContacts(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const result = await purgeDeletedDirectoryContacts({ db: input.services.db });
  if (result.directoryContacts > 0) input.log.info(result, 'purged directory records from the recycle bin');
}
