import { describe, expect, it } from 'vitest';

import {
  annualSaving,
  annualSavingPercent,
  choosePlanHref,
  clearSelectedPlan,
  describeCard,
  formatLimit,
  formatNaira,
  hasSenderRotation,
  INCLUDED_IN_ALL_PLANS,
  includedInAllPlans,
  paymentHref,
  planFeatureLines,
  planLimitRows,
  priceForInterval,
  readPaymentParams,
  readSelectedPlan,
  SELECTED_INTERVAL_KEY,
  SELECTED_PLAN_KEY,
  saveSelectedPlan,
  signUpHref,
  subscriptionBadge,
} from './billing';

const GROWTH = { priceMonthly: 3_500_000, priceAnnual: 35_000_000 };

function memoryStore() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('annual saving (12 × monthly − annual)', () => {
  it('is two months of Growth when the year costs ten months', () => {
    expect(annualSaving(GROWTH)).toBe(7_000_000);
    expect(annualSavingPercent(GROWTH)).toBe(17);
  });

  it('never goes below zero, and is nothing for the free plan', () => {
    expect(annualSaving({ priceMonthly: 1000, priceAnnual: 20_000 })).toBe(0);
    expect(annualSavingPercent({ priceMonthly: 0, priceAnnual: 0 })).toBe(0);
  });

  it('prices the chosen interval', () => {
    expect(priceForInterval(GROWTH, 'monthly')).toBe(3_500_000);
    expect(priceForInterval(GROWTH, 'annual')).toBe(35_000_000);
  });
});

describe('limits', () => {
  it('reads -1 and a missing limit as Unlimited', () => {
    expect(formatLimit(-1)).toBe('Unlimited');
    expect(formatLimit(undefined)).toBe('Unlimited');
    expect(formatLimit(null)).toBe('Unlimited');
    expect(formatLimit(10_000, { one: 'recipient', other: 'recipients' })).toBe('10,000 recipients');
    expect(formatLimit(1, { one: 'country', other: 'countries' })).toBe('1 country');
  });

  it("lists a plan's limits in a fixed order", () => {
    const rows = planLimitRows({
      campaignLimit: 20,
      newsletterLimit: -1,
      recipientLimit: 10_000,
      senderAccountLimit: 3,
      countryLimit: -1,
      categoryLimit: 1,
    });
    expect(rows.map((row) => [row.label, row.value])).toEqual([
      ['Campaigns', '20 campaigns / month'],
      ['Newsletters', 'Unlimited'],
      ['Recipients', '10,000 recipients'],
      ['Sender accounts', '3 sender accounts'],
      ['Countries', 'All countries'],
      ['Business categories', '1 category'],
    ]);
  });

  it('writes the pricing card lines, with rotation only where a second sender exists', () => {
    const free = {
      id: 'free' as const,
      campaignLimit: 3,
      newsletterLimit: 5,
      recipientLimit: 500,
      senderAccountLimit: 1,
      countryLimit: 1,
      categoryLimit: 1,
    };
    expect(planFeatureLines(free)).toEqual([
      '3 campaigns a month',
      '5 newsletters a month',
      '500 recipients',
      '1 sender account',
      '1 country, 1 category in lead discovery',
    ]);
    const pro = {
      ...free,
      id: 'enterprise' as const,
      campaignLimit: -1,
      newsletterLimit: -1,
      recipientLimit: -1,
    };
    expect(planFeatureLines({ ...pro, senderAccountLimit: 40, countryLimit: -1, categoryLimit: -1 })).toEqual(
      [
        'Unlimited campaigns',
        'Unlimited newsletters',
        'Unlimited recipients',
        '40 sender accounts',
        'All countries and business categories',
        'Smart sender rotation',
      ],
    );
    expect(hasSenderRotation({ id: 'starter' })).toBe(true);
    expect(hasSenderRotation({ id: 'starter', senderAccountLimit: 1 })).toBe(false);
  });
});

describe('payment links', () => {
  it('reads plan, interval (monthly by default) and returning from the URL', () => {
    expect(
      readPaymentParams(new URLSearchParams('plan=professional&interval=annual&returning=true')),
    ).toEqual({
      plan: 'professional',
      rawPlan: 'professional',
      interval: 'annual',
      returning: true,
    });
    expect(readPaymentParams(new URLSearchParams('plan=starter'))).toMatchObject({
      plan: 'starter',
      interval: 'monthly',
      returning: false,
    });
    expect(readPaymentParams(new URLSearchParams('interval=annual')).plan).toBeNull();
    expect(readPaymentParams(new URLSearchParams('plan=gold&interval=weekly'))).toMatchObject({
      plan: null,
      rawPlan: 'gold',
      interval: 'monthly',
    });
  });

  it('sends "Choose plan" to sign-up signed out and to /payment signed in; Free to the dashboard', () => {
    expect(choosePlanHref('professional', 'annual', false)).toBe(
      '/auth?mode=signup&plan=professional&interval=annual',
    );
    expect(choosePlanHref('professional', 'annual', true)).toBe('/payment?plan=professional&interval=annual');
    expect(choosePlanHref('free', 'monthly', true)).toBe('/dashboard');
    expect(choosePlanHref('free', 'monthly', false)).toBe('/auth?mode=signup');
    expect(signUpHref('starter', 'monthly')).toBe('/auth?mode=signup&plan=starter&interval=monthly');
    expect(paymentHref('enterprise', 'monthly', { returning: 'true' })).toBe(
      '/payment?plan=enterprise&interval=monthly&returning=true',
    );
  });
});

describe('selected plan storage (selectedPlan / selectedInterval keys)', () => {
  it('saves, reads and clears selectedPlan / selectedInterval', () => {
    const store = memoryStore();
    saveSelectedPlan('professional', 'annual', store);
    expect(store.data.get(SELECTED_PLAN_KEY)).toBe('professional');
    expect(store.data.get(SELECTED_INTERVAL_KEY)).toBe('annual');
    expect(readSelectedPlan(store)).toEqual({ plan: 'professional', interval: 'annual' });
    clearSelectedPlan(store);
    expect(readSelectedPlan(store)).toBeNull();
  });

  it('ignores values it did not write', () => {
    const store = memoryStore();
    store.setItem(SELECTED_PLAN_KEY, 'platinum');
    expect(readSelectedPlan(store)).toBeNull();
    store.setItem(SELECTED_PLAN_KEY, 'starter');
    store.setItem(SELECTED_INTERVAL_KEY, 'weekly');
    expect(readSelectedPlan(store)).toEqual({ plan: 'starter', interval: 'monthly' });
  });

  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => saveSelectedPlan('starter', 'monthly', broken)).not.toThrow();
    expect(readSelectedPlan(broken)).toBeNull();
  });
});

describe('display helpers', () => {
  it('formats kobo as naira without decimals', () => {
    expect(formatNaira(1_500_000)).toBe('₦15,000');
    expect(formatNaira(0)).toBe('₦0');
  });

  it('describes a card', () => {
    expect(describeCard('visa', '4081')).toBe('Visa •••• 4081');
    expect(describeCard(null, '4081')).toBe('Card •••• 4081');
    expect(describeCard(null, null)).toBeNull();
  });

  it('labels a subscription by its state', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const base = {
      planId: 'starter' as const,
      cancelAtPeriodEnd: false,
      currentPeriodEnd: '2026-07-01T00:00:00Z',
    };
    expect(subscriptionBadge({ ...base, status: 'active' }, now)).toEqual({
      label: 'Active',
      tone: 'success',
    });
    expect(subscriptionBadge({ ...base, status: 'active', cancelAtPeriodEnd: true }, now).label).toBe(
      'Cancelling',
    );
    expect(
      subscriptionBadge({ ...base, status: 'active', currentPeriodEnd: '2026-05-01T00:00:00Z' }, now).label,
    ).toBe('Expired');
    expect(subscriptionBadge({ ...base, status: 'past_due' }, now).label).toBe('Past due');
    expect(subscriptionBadge({ ...base, status: 'incomplete' }, now).label).toBe('Payment incomplete');
    expect(subscriptionBadge({ ...base, planId: 'free', status: null }, now).label).toBe('Free');
  });
});

describe('includedInAllPlans', () => {
  it('claims AI writing only when this installation has a provider connected', () => {
    expect(includedInAllPlans({ aiWriting: false })).toEqual(['Custom contact list upload', '24/7 support']);
    expect(includedInAllPlans(undefined)).not.toContain('AI cold email writing');
    expect(includedInAllPlans({ aiWriting: true })).toEqual([...INCLUDED_IN_ALL_PLANS]);
  });
});
