import type { User } from '@shared/auth';
import type { BillingInterval, PlanId } from '@shared/plans';
import { hasValidSubscription } from '@shared/subscription';

export interface PendingChoice {
  plan: Exclude<PlanId, 'free'>;
  interval: BillingInterval;
  /** The account itself is on the unpaid plan (status incomplete), not just a remembered choice. */
  recorded: boolean;
}

/** The paid plan a signed-in user chose but has not paid for, if any. */
export function findPendingChoice(
  user: Pick<
    User,
    | 'role'
    | 'subscriptionPlan'
    | 'subscriptionStatus'
    | 'subscriptionInterval'
    | 'subscriptionCurrentPeriodEnd'
  >,
  stored: { plan: PlanId; interval: BillingInterval } | null,
  now = new Date(),
): PendingChoice | null {
  if (user.role !== 'user') return null;
  if (user.subscriptionPlan !== 'free') {
    if (hasValidSubscription(user, now)) return null;
    return {
      plan: user.subscriptionPlan,
      interval:
        user.subscriptionInterval ?? (stored?.plan === user.subscriptionPlan ? stored.interval : 'monthly'),
      recorded: true,
    };
  }
  if (stored && stored.plan !== 'free')
    return { plan: stored.plan, interval: stored.interval, recorded: false };
  return null;
}
