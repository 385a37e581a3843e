import { describe, expect, it } from 'vitest';

import { findPendingChoice } from './pending-choice';

const NOW = new Date('2026-06-01T00:00:00Z');
const base = {
  role: 'user' as const,
  subscriptionPlan: 'free' as const,
  subscriptionStatus: null,
  subscriptionInterval: null,
  subscriptionCurrentPeriodEnd: null,
};

describe('findPendingChoice (/complete-signup)', () => {
  it('finds the unpaid plan recorded on the account', () => {
    const user = {
      ...base,
      subscriptionPlan: 'professional' as const,
      subscriptionStatus: 'incomplete',
      subscriptionInterval: 'annual' as const,
    };
    expect(findPendingChoice(user, null, NOW)).toEqual({
      plan: 'professional',
      interval: 'annual',
      recorded: true,
    });
  });

  it('falls back to the plan remembered in the browser for a free account', () => {
    expect(findPendingChoice(base, { plan: 'starter', interval: 'annual' }, NOW)).toEqual({
      plan: 'starter',
      interval: 'annual',
      recorded: false,
    });
  });

  it('has nothing pending for a paid, valid subscription or a free choice', () => {
    const paid = {
      ...base,
      subscriptionPlan: 'starter' as const,
      subscriptionStatus: 'active',
      subscriptionCurrentPeriodEnd: '2026-07-01T00:00:00Z',
    };
    expect(findPendingChoice(paid, { plan: 'enterprise', interval: 'monthly' }, NOW)).toBeNull();
    expect(findPendingChoice(base, { plan: 'free', interval: 'monthly' }, NOW)).toBeNull();
    expect(findPendingChoice(base, null, NOW)).toBeNull();
  });

  it('never asks an admin or data entry officer to pay', () => {
    expect(
      findPendingChoice({ ...base, role: 'super_admin' }, { plan: 'starter', interval: 'monthly' }, NOW),
    ).toBeNull();
  });
});
