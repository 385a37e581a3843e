import type { FastifyBaseLogger } from 'fastify';
import { rebuildDirectoryFacetsNow } from '../../server/jobs/rebuild-directory-facets.job';
import type { WorkerServices } from '../services';

export async function handleRebuildDirectoryFacets(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const started = performance.now();
  await rebuildDirectoryFacetsNow({ db: input.services.db });
  input.log.info({ ms: Math.round(performance.now() - started) }, 'rebuilt the directory audience roll-up');
}
