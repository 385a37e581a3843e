import { describe, expect, it } from 'vitest';
import {
  emailHandle,
  greetingName,
  periodEndLabel,
  planBadgeLabel,
  planLimitRows,
  subscriptionStatusDisplay,
  welcomeWord,
} from './plan-display';

const now = new Date('2025-06-15T12:00:00Z');

describe('emailHandle', () => {
  it('keeps the part before the @ sign', () => {
    expect(emailHandle('ada.obi@tambari.test')).toBe('ada.obi');
  });

  it('falls back to the whole value when there is no handle', () => {
    expect(emailHandle('no-at-sign')).toBe('no-at-sign');
    expect(emailHandle('@tambari.test')).toBe('@tambari.test');
  });
});

describe('planBadgeLabel', () => {
  it('names the display plan', () => {
    expect(planBadgeLabel('free')).toBe('Free Plan');
    expect(planBadgeLabel('premium')).toBe('Premium Plan');
  });
});

describe('planLimitRows', () => {
  it('lists the fixed defaults of the free plan', () => {
    expect(planLimitRows('free').map((row) => row.value)).toEqual([
      '5 per month',
      '3 per month',
      '1 country',
      '1 category',
    ]);
  });

  it('opens every country and category on a paid plan', () => {
    expect(planLimitRows('starter').map((row) => row.value)).toEqual(['All countries', 'All categories']);
  });

  it("reads a paid plan's limits from the plan endpoint; -1 or missing is Unlimited", () => {
    const rows = planLimitRows('starter', { newsletterLimit: 20, campaignLimit: -1, recipientLimit: 10000 });
    expect(rows.map((row) => [row.label, row.value])).toEqual([
      ['Newsletters', '20 per month'],
      ['Campaigns', 'Unlimited'],
      ['Recipients', '10,000'],
      ['Countries', 'All countries'],
      ['Business categories', 'All categories'],
    ]);
    expect(
      planLimitRows('enterprise', {})
        .slice(0, 3)
        .map((row) => row.value),
    ).toEqual(['Unlimited', 'Unlimited', 'Unlimited']);
  });
});

describe('subscriptionStatusDisplay', () => {
  it('shows the free plan as active whatever the stored status', () => {
    expect(subscriptionStatusDisplay('free', null, null, now).label).toBe('Active');
  });

  it('shows an active paid plan with a future period end as active', () => {
    expect(subscriptionStatusDisplay('starter', 'active', '2025-07-01T00:00:00Z', now)).toEqual({
      label: 'Active',
      tone: 'success',
    });
  });

  it('shows an active paid plan whose period has ended as expired', () => {
    expect(subscriptionStatusDisplay('starter', 'active', '2025-06-01T00:00:00Z', now).label).toBe('Expired');
  });

  it('names the problem statuses and humanises unknown ones', () => {
    expect(subscriptionStatusDisplay('professional', 'past_due', null, now).label).toBe('Past due');
    expect(subscriptionStatusDisplay('professional', 'incomplete', null, now).tone).toBe('warning');
    expect(subscriptionStatusDisplay('enterprise', 'on_hold', null, now).label).toBe('On hold');
  });
});

describe('periodEndLabel', () => {
  it('says renews for a future date, access until once cancelled, ended for a past date', () => {
    expect(periodEndLabel('active', '2025-07-01T00:00:00Z', now)).toBe('Renews on');
    expect(periodEndLabel('cancelled', '2025-07-01T00:00:00Z', now)).toBe('Access until');
    expect(periodEndLabel('active', '2025-06-01T00:00:00Z', now)).toBe('Ended on');
  });
});

describe('greeting a user', () => {
  it('uses the first name, falling back to the email handle', () => {
    expect(greetingName({ firstName: 'Chidi', email: 'chidi.nwosu@example.com' })).toBe('Chidi');
    expect(greetingName({ firstName: '  ', email: 'chidi.nwosu@example.com' })).toBe('chidi.nwosu');
  });

  it('says "Welcome" on a new account\'s first visit and "Welcome back" after', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    const justCreated = '2026-11-27T09:58:00Z';
    expect(welcomeWord({ createdAt: justCreated, greetedBefore: false, now })).toBe('Welcome');
    expect(welcomeWord({ createdAt: justCreated, greetedBefore: true, now })).toBe('Welcome back');
    expect(welcomeWord({ createdAt: '2026-10-01T09:00:00Z', greetedBefore: false, now })).toBe(
      'Welcome back',
    );
  });
});
