import type { PlanId } from './plans';
import type { Role } from './roles';

/** The subset of the user that the subscription rules read. */
export interface SubscriptionSubject {
  role: Role;
  subscriptionPlan: PlanId;
  subscriptionStatus: string | null;
  subscriptionCurrentPeriodEnd: string | null;
}

export type SubscriptionIssue = 'expired' | 'incomplete' | 'cancelled' | 'past_due' | 'free_plan' | null;

function periodEndInFuture(user: SubscriptionSubject, now: Date): boolean {
  if (!user.subscriptionCurrentPeriodEnd) return false;
  return new Date(user.subscriptionCurrentPeriodEnd).getTime() > now.getTime();
}

/**
 * Whether a user's subscription is valid: super admins and data entry officers always pass;
 * a free-plan user is never blocked (the free plan is usable within its limits); a paid plan needs status
 * active and a period end in the future.
 */
export function hasValidSubscription(user: SubscriptionSubject, now = new Date()): boolean {
  if (user.role === 'super_admin' || user.role === 'data_entry') return true;
  if (user.subscriptionPlan === 'free') return true;
  return user.subscriptionStatus === 'active' && periodEndInFuture(user, now);
}

/** Login's `subscriptionInfo.needsPayment`: true only for a paid plan that is not active (PRODUCT.md). */
export function needsPayment(user: SubscriptionSubject): boolean {
  if (user.role === 'super_admin' || user.role === 'data_entry') return false;
  if (user.subscriptionPlan === 'free') return false;
  return user.subscriptionStatus !== 'active';
}

/**
 * What is wrong with a paid plan's subscription (none for staff or the free plan): an active one whose
 * period has ended is expired; incomplete, cancelled and past_due name themselves.
 */
export function getSubscriptionIssue(user: SubscriptionSubject, now = new Date()): SubscriptionIssue {
  if (user.role === 'super_admin' || user.role === 'data_entry') return null;
  if (user.subscriptionPlan === 'free') return null;
  switch (user.subscriptionStatus) {
    case 'incomplete':
    case 'cancelled':
    case 'past_due':
      return user.subscriptionStatus;
    case 'active':
      return periodEndInFuture(user, now) ? null : 'expired';
    case 'expired':
      return 'expired';
    default:
      // A paid plan with no payment on record (chosen at sign-up, never paid): "no issue" would
      // leave the blocked screen without a variant, so it asks for the payment that is missing.
      return 'incomplete';
  }
}

/** Routes a user without a valid subscription may still open, so they can pay or get help. */
export const SUBSCRIPTION_EXEMPT_PATHS = [
  '/pricing',
  '/payment',
  '/help',
  '/status',
  '/knowledge-base',
] as const;
