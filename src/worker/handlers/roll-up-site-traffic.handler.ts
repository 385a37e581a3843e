import type { FastifyBaseLogger } from 'fastify';
import { rollUpSiteTraffic } from '../../server/jobs/roll-up-site-traffic.job';
import type { WorkerServices } from '../services';

export async function handleRollUpSiteTraffic(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const result = await rollUpSiteTraffic({ db: input.services.db });
  input.log.debug(result, 'rolled up website traffic');
}
