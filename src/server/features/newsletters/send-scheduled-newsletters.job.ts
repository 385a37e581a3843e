import { z } from 'zod';
import { defineJob } from '../../jobs/define-job';
import { runNewsletterSchedule } from './newsletter-send.service';

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
