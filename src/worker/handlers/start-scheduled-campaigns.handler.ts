import type { FastifyBaseLogger } from 'fastify';
import { startScheduledCampaigns } from '../../server/features/campaigns/launch.service';
import type { WorkerServices } from '../services';

/** Scheduled campaigns whose start time has come: audience copied in, step 1 queued. */
export async function handleStartScheduledCampaigns(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { db, queue, env } = input.services;
  if (!env) throw new Error('start-scheduled-campaigns needs the environment');
  const started = await startScheduledCampaigns({
    db,
    queue,
    appUrl: env.APP_URL,
    log: input.log,
    dispatchConcurrency: env.DISPATCH_CONCURRENCY,
  });
  if (started.length > 0) input.log.info({ started }, 'started scheduled campaigns');
}
