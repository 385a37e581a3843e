import type { FastifyBaseLogger } from 'fastify';
import { purgeStaleImports } from '../../server/jobs/purge-stale-imports.job';
import type { WorkerServices } from '../services';

export async function handlePurgeStaleImports(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { database, env } = input.services;
  if (!database || !env) throw new Error('purge-stale-imports needs the database handle and the environment');
  const result = await purgeStaleImports({ database, dataDir: env.DATA_DIR });
  if (result.abandoned + result.stuck + result.orphanFiles > 0)
    input.log.info(result, 'purged stale imports');
}
