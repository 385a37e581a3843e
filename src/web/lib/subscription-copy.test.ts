import { describe, expect, it } from 'vitest';

import { getPaymentHref, SUBSCRIPTION_BANNER_TEXT, SUBSCRIPTION_BLOCKED_COPY } from '@/lib/subscription-copy';

describe('subscription copy', () => {
  it('gives each problem kind its own button', () => {
    expect(SUBSCRIPTION_BLOCKED_COPY.expired.action).toBe('Renew Subscription');
    expect(SUBSCRIPTION_BLOCKED_COPY.cancelled.action).toBe('Reactivate Subscription');
    expect(SUBSCRIPTION_BLOCKED_COPY.past_due.action).toBe('Update Payment');
    expect(SUBSCRIPTION_BLOCKED_COPY.incomplete.action).toBe('Complete Payment');
    expect(SUBSCRIPTION_BLOCKED_COPY.free_plan.action).toBe('Choose Plan & Pay');
  });

  it('uses the banner texts as the bodies', () => {
    expect(SUBSCRIPTION_BANNER_TEXT).toEqual({
      incomplete: 'Your payment is incomplete. Complete payment to access premium features.',
      expired: 'Your subscription has expired. Renew to continue accessing premium features.',
      cancelled: 'Your subscription was cancelled. Reactivate to access premium features.',
      past_due: 'Payment failed. Update your payment method to continue.',
    });
    for (const issue of ['incomplete', 'expired', 'cancelled', 'past_due'] as const) {
      expect(SUBSCRIPTION_BLOCKED_COPY[issue].body).toBe(SUBSCRIPTION_BANNER_TEXT[issue]);
    }
  });

  it('sends paid plans to /payment and the free plan to /pricing', () => {
    expect(getPaymentHref('starter', 'annual')).toBe('/payment?plan=starter&interval=annual');
    expect(getPaymentHref('professional', null)).toBe('/payment?plan=professional&interval=monthly');
    expect(getPaymentHref('free', 'monthly')).toBe('/pricing');
  });
});
