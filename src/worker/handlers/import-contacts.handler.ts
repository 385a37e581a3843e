import type { FastifyBaseLogger } from 'fastify';
import { importContacts } from '../../server/jobs/import-contacts.job';
import type { WorkerServices } from '../services';

export async function handleImportContacts(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: { importId: string };
  signal?: AbortSignal;
}): Promise<void> {
  const { database } = input.services;
  if (!database) throw new Error('import-contacts needs the database handle (COPY and the staging table)');
  const outcome = await importContacts({
    database,
    importId: input.payload.importId,
    log: input.log,
    signal: input.signal,
  });
  input.log.info({ importId: input.payload.importId, outcome }, 'import job ended');
  // Failing the job makes pg-boss retry it; the retry resumes from the last saved batch.
  if (outcome === 'interrupted') throw new Error('import interrupted; it resumes on the next attempt');
}
