import { defineJob } from '@server/jobs/define-job';
import type { Queue } from '@server/jobs/queue';
import { z } from 'zod';
import {
  FINISH_NEWSLETTER_SENDS_JOB,
  finishNewsletterSends,
  QUEUE_NEWSLETTER_AUDIENCE_JOB,
  queueAudience,
  runNewsletterSchedule,
} from './newsletter-send.service';

/**
 * Every minute: starts newsletters and bulk emails whose scheduled time has come, takes over sends whose
 * process died, and marks finished sends 'sent' (newsletter-send.service.ts).
 */
export const sendScheduledNewslettersJob = defineJob({
  name: 'send-scheduled-newsletters',
  description:
    'Starts scheduled newsletters and bulk emails, resumes interrupted sends, marks finished ones.',
  payload: z.object({}),
  cron: '* * * * *',
  async run({ services, log }) {
    const { db, queue, env } = services;
    const summary = await runNewsletterSchedule({
      db,
      queue,
      appUrl: env.APP_URL,
      dispatchConcurrency: env.DISPATCH_CONCURRENCY,
      log,
    });
    if (summary.started + summary.failed + summary.resumed + summary.finished > 0) {
      log.info(summary, 'newsletter sends');
    }
  },
});

/**
 * Queues the rest of a large newsletter's audience after "send now" queued the first batches. Safe to
 * run twice: recipients already in the campaign are skipped; a send whose job died is taken over by the
 * schedule above once it stops making progress.
 */
export const queueNewsletterAudienceJob = defineJob({
  name: QUEUE_NEWSLETTER_AUDIENCE_JOB,
  description: "Queues a large newsletter's or bulk email's remaining recipients, batch by batch.",
  payload: z.object({ campaignId: z.uuid() }),
  async run({ services, log, payload }) {
    const { db, queue, env } = services;
    const { queued } = await queueAudience(
      { db, queue, appUrl: env.APP_URL, dispatchConcurrency: env.DISPATCH_CONCURRENCY },
      payload.campaignId,
    );
    log.info({ campaignId: payload.campaignId, queued }, 'newsletter audience queued');
  },
});

/**
 * Marks finished sends 'sent' now rather than at the schedule's next minute: the dispatcher asks for it
 * each time a drain that sent something ends (the registry wires the two), so a newsletter's page says
 * "sent" seconds after its last message instead of up to a minute later. Safe to run twice or on two
 * workers at once (finishNewsletterSends marks each send once).
 */
export const finishNewsletterSendsJob = defineJob({
  name: FINISH_NEWSLETTER_SENDS_JOB,
  description: 'Marks newsletters and bulk emails whose last message went out as sent.',
  payload: z.object({}),
  async run({ services, log }) {
    const finished = await finishNewsletterSends({ db: services.db });
    if (finished > 0) log.info({ finished }, 'newsletter sends finished');
  },
});

/** Asks a worker to run the finish above (the dispatcher's drain calls it, through the registry). */
export async function requestNewsletterFinish(queue: Queue): Promise<void> {
  // One job per request, started at once. A debounce (pg-boss's singletonSeconds with singletonNextSlot)
  // was tried: it queued fewer jobs (20 requests, 1-3 jobs), but a request that fell in a taken slot
  // waited for the next one and for the workers' due check, and a 20,000-recipient newsletter showed
  // 'sent' 1.7 s after its last message instead of 0.3 s. The jobs it saved are cheap: a finish that
  // finds the send held by another run's lease leaves it.
  await queue.send(FINISH_NEWSLETTER_SENDS_JOB, {}, { retryLimit: 0 });
}
