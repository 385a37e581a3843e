import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { evaluateAlertRules } from './alerting.service';

/** How often each worker process records that it is alive (the "worker not seen" rule reads it). */
export const WORKER_HEARTBEAT_MS = 30_000;

/** Safe to run twice: an active alert is opened (and mailed) once; see evaluateAlertRules. */
export const evaluateAlertRulesJob = defineJob({
  name: 'evaluate-alert-rules',
  description: 'Checks the alert rules and opens, mails or resolves alerts.',
  payload: z.object({}),
  /** Every minute: an alert opens (and mails the super admins) within a minute of its condition. */
  cron: '* * * * *',
  async run({ services, log }) {
    const result = await evaluateAlertRules({
      db: services.db,
      mailer: services.mailer,
      appUrl: services.env.APP_URL,
      log,
    });
    if (result.opened + result.resolved > 0) log.info(result, 'alert rules evaluated');
  },
});
