import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import type { BillingServices } from './billing.service';
import { type RenewalSummary, runSubscriptionRenewals } from './renewals.service';

/** Safe to run twice: each renewal charge has a deterministic reference, stored before it is attempted. */
export function renewSubscriptions(services: BillingServices): Promise<RenewalSummary> {
  return runSubscriptionRenewals(services);
}

export const renewSubscriptionsJob = defineJob({
  name: 'renew-subscriptions',
  description: 'Charges subscriptions whose period ended, retries failed renewals daily, then expires them.',
  payload: z.object({}),
  /** Every 15 minutes: periods that ended are charged, failed renewals retried daily, then expired. */
  cron: '*/15 * * * *',
  async run({ services, log }) {
    const { db, paystack, mailer, env } = services;
    const result = await renewSubscriptions({ db, paystack, mailer, env, log });
    if (result.checked > 0) log.info(result, 'subscription renewals processed');
  },
});
