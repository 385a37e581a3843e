import { describe, expect, it } from 'vitest';

import { classifyPlanChange, isImmediateChange, planActionFor } from './plan-actions';

const free = { subscriptionPlan: 'free' as const, subscriptionInterval: null };
const starterMonthly = { subscriptionPlan: 'starter' as const, subscriptionInterval: 'monthly' as const };

describe('planActionFor (the pricing page buttons)', () => {
  it('sends a visitor to sign up with the plan and interval', () => {
    expect(
      planActionFor({ plan: 'professional', interval: 'annual', user: null, paidAndValid: false }),
    ).toEqual({
      type: 'navigate',
      to: '/auth?mode=signup&plan=professional&interval=annual',
      label: 'Choose plan',
    });
    expect(
      planActionFor({ plan: 'free', interval: 'monthly', user: null, paidAndValid: false }),
    ).toMatchObject({
      to: '/auth?mode=signup',
    });
  });

  it('sends a free user to /payment for a paid plan and to the dashboard for Free', () => {
    expect(
      planActionFor({ plan: 'starter', interval: 'monthly', user: free, paidAndValid: false }),
    ).toMatchObject({
      to: '/payment?plan=starter&interval=monthly',
    });
    expect(
      planActionFor({ plan: 'free', interval: 'monthly', user: free, paidAndValid: false }),
    ).toMatchObject({
      to: '/dashboard',
    });
  });

  it('takes an unpaid account back to Free through the API', () => {
    const unpaid = { subscriptionPlan: 'enterprise' as const, subscriptionInterval: 'annual' as const };
    expect(planActionFor({ plan: 'free', interval: 'monthly', user: unpaid, paidAndValid: false })).toEqual({
      type: 'select-free',
      label: 'Switch to Free',
    });
  });

  it('marks the running plan, pays for upgrades and schedules downgrades', () => {
    const args = { user: starterMonthly, paidAndValid: true };
    expect(planActionFor({ ...args, plan: 'starter', interval: 'monthly' })).toEqual({
      type: 'none',
      label: 'Current plan',
    });
    expect(planActionFor({ ...args, plan: 'starter', interval: 'annual' })).toMatchObject({
      to: '/upgrade?plan=starter&interval=annual',
      label: 'Switch to annual',
    });
    expect(planActionFor({ ...args, plan: 'enterprise', interval: 'monthly' })).toMatchObject({
      to: '/payment?plan=enterprise&interval=monthly',
      label: 'Upgrade',
    });
    expect(planActionFor({ ...args, plan: 'free', interval: 'monthly' })).toMatchObject({
      to: '/upgrade?plan=free&interval=monthly',
      label: 'Downgrade',
    });
  });
});

describe('classifyPlanChange', () => {
  const running = {
    currentPlan: 'professional' as const,
    currentInterval: 'monthly' as const,
    paidAndValid: true,
  };

  it('reads moves up, down and between intervals', () => {
    expect(classifyPlanChange({ ...running, target: 'enterprise', interval: 'monthly' })).toBe('upgrade');
    expect(classifyPlanChange({ ...running, target: 'starter', interval: 'annual' })).toBe('downgrade');
    expect(classifyPlanChange({ ...running, target: 'free', interval: 'monthly' })).toBe('downgrade');
    expect(classifyPlanChange({ ...running, target: 'professional', interval: 'monthly' })).toBe('current');
    expect(classifyPlanChange({ ...running, target: 'professional', interval: 'annual' })).toBe('to-annual');
    expect(
      classifyPlanChange({
        ...running,
        currentInterval: 'annual',
        target: 'professional',
        interval: 'monthly',
      }),
    ).toBe('to-monthly');
  });

  it('treats every paid plan as a new payment without a running subscription', () => {
    const none = { currentPlan: 'free' as const, currentInterval: null, paidAndValid: false };
    expect(classifyPlanChange({ ...none, target: 'starter', interval: 'monthly' })).toBe('new');
    expect(classifyPlanChange({ ...none, target: 'free', interval: 'monthly' })).toBe('current');
  });

  it('pays now only for upgrades and monthly → annual', () => {
    expect(isImmediateChange('upgrade')).toBe(true);
    expect(isImmediateChange('to-annual')).toBe(true);
    expect(isImmediateChange('downgrade')).toBe(false);
    expect(isImmediateChange('to-monthly')).toBe(false);
  });
});
