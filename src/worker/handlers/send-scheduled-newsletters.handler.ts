import type { FastifyBaseLogger } from 'fastify';
import { runNewsletterSchedule } from '../../server/features/newsletters/newsletter-send.service';
import type { WorkerServices } from '../services';

export async function handleSendScheduledNewsletters(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { db, queue, env } = input.services;
  if (!env) throw new Error('send-scheduled-newsletters needs the environment');
  const summary = await runNewsletterSchedule({
    db,
    queue,
    appUrl: env.APP_URL,
    dispatchConcurrency: env.DISPATCH_CONCURRENCY,
    log: input.log,
  });
  if (summary.started + summary.failed + summary.resumed + summary.finished > 0) {
    input.log.info(summary, 'newsletter sends');
  }
}
