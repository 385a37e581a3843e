import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { expireAbandonedCheckouts } from './payments.service';

export const expireAbandonedCheckoutsJob = defineJob({
  name: 'expire-abandoned-checkouts',
  description:
    'Closes checkouts left pending for more than 24 hours: verified with Paystack, then applied, failed or marked abandoned.',
  payload: z.object({}),
  cron: '20 * * * *',
  async run({ services, log }) {
    const { db, paystack, mailer, env } = services;
    const result = await expireAbandonedCheckouts({ db, paystack, mailer, env, log });
    if (result.checked > 0) log.info(result, 'abandoned checkouts processed');
  },
});
