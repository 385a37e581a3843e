import type { BillingInterval, PlanId } from '@shared/plans';
import type { SubscriptionIssue } from '@shared/subscription';

export type BlockingIssue = Exclude<SubscriptionIssue, null>;

/** The subscription banners' texts, one per problem. */
export const SUBSCRIPTION_BANNER_TEXT: Record<Exclude<BlockingIssue, 'free_plan'>, string> = {
  incomplete: 'Your payment is incomplete. Complete payment to access premium features.',
  expired: 'Your subscription has expired. Renew to continue accessing premium features.',
  cancelled: 'Your subscription was cancelled. Reactivate to access premium features.',
  past_due: 'Payment failed. Update your payment method to continue.',
};

export interface BlockedCopy {
  title: string;
  body: string;
  action: string;
}

/** The blocked screen's title and button for each problem kind; the bodies are the banner texts. */
export const SUBSCRIPTION_BLOCKED_COPY: Record<BlockingIssue, BlockedCopy> = {
  expired: {
    title: 'Your subscription has expired',
    body: SUBSCRIPTION_BANNER_TEXT.expired,
    action: 'Renew Subscription',
  },
  cancelled: {
    title: 'Your subscription was cancelled',
    body: SUBSCRIPTION_BANNER_TEXT.cancelled,
    action: 'Reactivate Subscription',
  },
  past_due: {
    title: 'Your last payment failed',
    body: SUBSCRIPTION_BANNER_TEXT.past_due,
    action: 'Update Payment',
  },
  incomplete: {
    title: 'Your payment is incomplete',
    body: SUBSCRIPTION_BANNER_TEXT.incomplete,
    action: 'Complete Payment',
  },
  free_plan: {
    title: 'This feature needs a paid plan',
    body: 'The Free plan does not include this feature. Choose a plan and pay in Naira to unlock it.',
    action: 'Choose Plan & Pay',
  },
};

/** Where the payment buttons lead: /payment for a paid plan, /pricing for the free plan. */
export function getPaymentHref(plan: PlanId, interval: BillingInterval | null | undefined): string {
  if (plan === 'free') return '/pricing';
  const params = new URLSearchParams({ plan, interval: interval ?? 'monthly' });
  return `/payment?${params.toString()}`;
}
