import type { FastifyBaseLogger } from 'fastify';
import { advanceCampaignSequences } from '../../server/features/campaigns/sequencing';
import type { WorkerServices } from '../services';

/** Queues due steps and completes finished campaigns (see sequencing.ts). Safe to run twice. */
export async function handleAdvanceCampaignSequences(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: { campaignId?: string };
}): Promise<void> {
  const { db, queue, env } = input.services;
  if (!env) throw new Error('advance-campaign-sequences needs the environment');
  const summary = await advanceCampaignSequences({
    db,
    queue,
    appUrl: env.APP_URL,
    log: input.log,
    campaignId: input.payload.campaignId,
    dispatchConcurrency: env.DISPATCH_CONCURRENCY,
  });
  if (summary.queued + summary.skipped + summary.completedContacts + summary.completedCampaigns.length > 0)
    input.log.info(summary, 'advanced campaign sequences');
}
