import type { FastifyBaseLogger } from 'fastify';
import { purgeSiteTraffic } from '../../server/jobs/purge-site-traffic.job';
import type { WorkerServices } from '../services';

export async function handlePurgeSiteTraffic(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const result = await purgeSiteTraffic({ db: input.services.db });
  if (result.views > 0) input.log.info(result, 'deleted page views past their retention');
}
