import { describe, expect, it } from 'vitest';
import {
  getSubscriptionIssue,
  hasValidSubscription,
  needsPayment,
  type SubscriptionSubject,
} from './subscription';

const NOW = new Date('2026-03-15T12:00:00Z');
const FUTURE = '2026-04-15T12:00:00.000Z';
const PAST = '2026-03-01T12:00:00.000Z';

function subject(overrides: Partial<SubscriptionSubject>): SubscriptionSubject {
  return {
    role: 'user',
    subscriptionPlan: 'starter',
    subscriptionStatus: 'active',
    subscriptionCurrentPeriodEnd: FUTURE,
    ...overrides,
  };
}

describe('subscription rules (the free plan is never blocked; a paid plan needs an active, unexpired period)', () => {
  it('always lets a super admin through, whatever the plan says', () => {
    for (const status of ['incomplete', 'cancelled', 'past_due', null]) {
      const admin = subject({
        role: 'super_admin',
        subscriptionStatus: status,
        subscriptionCurrentPeriodEnd: PAST,
      });
      expect(hasValidSubscription(admin, NOW)).toBe(true);
      expect(needsPayment(admin)).toBe(false);
      expect(getSubscriptionIssue(admin, NOW)).toBeNull();
    }
  });

  it('lets a data entry officer through', () => {
    const officer = subject({
      role: 'data_entry',
      subscriptionStatus: 'past_due',
      subscriptionCurrentPeriodEnd: null,
    });
    expect(hasValidSubscription(officer, NOW)).toBe(true);
    expect(needsPayment(officer)).toBe(false);
    expect(getSubscriptionIssue(officer, NOW)).toBeNull();
  });

  it('never blocks a free-plan user and never asks them to pay', () => {
    for (const status of [null, 'active', 'cancelled', 'incomplete']) {
      const free = subject({
        subscriptionPlan: 'free',
        subscriptionStatus: status,
        subscriptionCurrentPeriodEnd: null,
      });
      expect(hasValidSubscription(free, NOW)).toBe(true);
      expect(needsPayment(free)).toBe(false);
      expect(getSubscriptionIssue(free, NOW)).toBeNull();
    }
  });

  it.each(['starter', 'professional', 'enterprise'] as const)(
    'accepts an active %s plan with a future period end',
    (plan) => {
      const paid = subject({ subscriptionPlan: plan });
      expect(hasValidSubscription(paid, NOW)).toBe(true);
      expect(needsPayment(paid)).toBe(false);
      expect(getSubscriptionIssue(paid, NOW)).toBeNull();
    },
  );

  it('calls an active paid plan whose period has ended expired, without asking for payment at login', () => {
    for (const end of [PAST, null]) {
      const lapsed = subject({ subscriptionCurrentPeriodEnd: end });
      expect(hasValidSubscription(lapsed, NOW)).toBe(false);
      expect(getSubscriptionIssue(lapsed, NOW)).toBe('expired');
      expect(needsPayment(lapsed)).toBe(false);
    }
  });

  it('judges the period end against the given time', () => {
    const paid = subject({ subscriptionCurrentPeriodEnd: FUTURE });
    expect(hasValidSubscription(paid, new Date('2026-05-01T00:00:00Z'))).toBe(false);
    expect(getSubscriptionIssue(paid, new Date('2026-05-01T00:00:00Z'))).toBe('expired');
  });

  it.each(['incomplete', 'cancelled', 'past_due'] as const)(
    'names a paid plan with status %s after it',
    (status) => {
      const paid = subject({ subscriptionStatus: status });
      expect(hasValidSubscription(paid, NOW)).toBe(false);
      expect(getSubscriptionIssue(paid, NOW)).toBe(status);
      expect(needsPayment(paid)).toBe(true);
    },
  );

  it('asks for payment on a paid plan with no status yet', () => {
    const fresh = subject({
      subscriptionPlan: 'professional',
      subscriptionStatus: null,
      subscriptionCurrentPeriodEnd: null,
    });
    expect(needsPayment(fresh)).toBe(true);
    expect(hasValidSubscription(fresh, NOW)).toBe(false);
    // The blocked screen offers "Complete Payment" for it, not "Renew Subscription".
    expect(getSubscriptionIssue(fresh, NOW)).toBe('incomplete');
  });
});
