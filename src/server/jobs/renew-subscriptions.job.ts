import { z } from 'zod';
import type { BillingServices } from '../features/payments/billing.service';
import { type RenewalSummary, runSubscriptionRenewals } from '../features/payments/renewals.service';

export const renewSubscriptionsJob = {
  name: 'renew-subscriptions',
  payload: z.object({}),
  /** Every 15 minutes: periods that ended are charged, failed renewals retried daily, then expired. */
  cron: '*/15 * * * *',
} as const;

/** Safe to run twice: each renewal charge has a deterministic reference, stored before it is attempted. */
export function renewSubscriptions(services: BillingServices): Promise<RenewalSummary> {
  return runSubscriptionRenewals(services);
}
