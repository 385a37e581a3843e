import type { FastifyBaseLogger } from 'fastify';
import { rollUpPlatformStats } from '../../server/features/admin-analytics/platform-rollup.service';
import type { WorkerServices } from '../services';

export async function handleRollUpPlatformStats(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const result = await rollUpPlatformStats({ db: input.services.db });
  if (result.batches > 1) input.log.info(result, 'rolled up a backlog of events');
}
