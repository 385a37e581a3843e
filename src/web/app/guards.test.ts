import { describe, expect, it } from 'vitest';

import { type GuardUser, resolveGuard } from '@/app/guards';
import { getRoleHome, isAdminPath } from '@/app/paths';

const NOW = new Date('2025-06-01T12:00:00Z');
const FUTURE = '2025-07-01T00:00:00Z';
const PAST = '2025-05-01T00:00:00Z';

function user(overrides: Partial<GuardUser> = {}): GuardUser {
  return {
    role: 'user',
    subscriptionPlan: 'free',
    subscriptionStatus: null,
    subscriptionCurrentPeriodEnd: null,
    ...overrides,
  };
}

const admin = user({ role: 'super_admin' });
const dataEntry = user({ role: 'data_entry' });
const free = user();
const paidActive = user({
  subscriptionPlan: 'starter',
  subscriptionStatus: 'active',
  subscriptionCurrentPeriodEnd: FUTURE,
});

const ADMIN_ONLY = [
  '/admin-dashboard',
  '/admin/users',
  '/admin/dev-mailbox',
  '/admin/contact-database',
  '/admin/database-manager',
  '/admin-templates',
  '/admin-settings',
  '/admin-orders',
  '/admin-subscriptions',
  '/scraper',
  '/users',
  '/system-analytics',
  '/email-queue-status',
  '/contact-sync',
];

describe('resolveGuard — signed out', () => {
  it.each(['/', '/auth', '/forgot-password', '/reset-password'])('opens the public route %s', (path) => {
    expect(resolveGuard(path, null, NOW)).toEqual({ type: 'allow' });
  });

  it.each(['/help', '/status', '/knowledge-base', '/help/'])('opens the support page %s', (path) => {
    expect(resolveGuard(path, null, NOW)).toEqual({ type: 'allow' });
  });

  it.each(['/dashboard', '/settings', '/admin-dashboard', '/data-entry', '/campaigns/7/steps', '/analytics'])(
    'sends %s to /auth',
    (path) => {
      expect(resolveGuard(path, null, NOW)).toEqual({ type: 'redirect', to: '/auth' });
    },
  );
});

describe('resolveGuard — signed in on / and /auth', () => {
  it.each([
    [free, '/dashboard'],
    [admin, '/admin-dashboard'],
    [dataEntry, '/data-entry'],
  ] as const)('sends the role to its home', (who, home) => {
    expect(resolveGuard('/', who, NOW)).toEqual({ type: 'redirect', to: home });
    expect(resolveGuard('/auth', who, NOW)).toEqual({ type: 'redirect', to: home });
    expect(getRoleHome(who.role)).toBe(home);
  });

  it('keeps the password pages open', () => {
    expect(resolveGuard('/reset-password', free, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard('/forgot-password', admin, NOW)).toEqual({ type: 'allow' });
  });
});

describe('resolveGuard — admin routes', () => {
  it.each(ADMIN_ONLY)('opens %s to a super admin', (path) => {
    expect(isAdminPath(path)).toBe(true);
    expect(resolveGuard(path, admin, NOW)).toEqual({ type: 'allow' });
  });

  it.each(ADMIN_ONLY)('redirects a subscriber on %s to /dashboard', (path) => {
    expect(resolveGuard(path, free, NOW)).toEqual({ type: 'redirect', to: '/dashboard' });
    expect(resolveGuard(path, paidActive, NOW)).toEqual({ type: 'redirect', to: '/dashboard' });
  });

  it('does not treat look-alike paths as admin routes', () => {
    expect(isAdminPath('/usersettings')).toBe(false);
    expect(isAdminPath('/scrapers')).toBe(false);
    expect(resolveGuard('/dashboard', free, NOW)).toEqual({ type: 'allow' });
  });

  it('lets a super admin use every signed-in route without a subscription check', () => {
    const lapsedAdmin = user({
      role: 'super_admin',
      subscriptionPlan: 'starter',
      subscriptionStatus: 'past_due',
    });
    expect(resolveGuard('/dashboard', lapsedAdmin, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard('/settings', lapsedAdmin, NOW)).toEqual({ type: 'allow' });
  });
});

describe('resolveGuard — data entry', () => {
  it('opens /data-entry and the support pages to a data entry officer', () => {
    expect(resolveGuard('/data-entry', dataEntry, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard('/help', dataEntry, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard('/knowledge-base', dataEntry, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard('/status', dataEntry, NOW)).toEqual({ type: 'allow' });
  });

  it.each([
    '/dashboard',
    '/settings',
    '/campaigns',
    '/admin-dashboard',
    '/admin/users',
    '/pricing',
    '/analytics',
    '/helpdesk',
  ])('sends a data entry officer on %s to /data-entry', (path) => {
    expect(resolveGuard(path, dataEntry, NOW)).toEqual({ type: 'redirect', to: '/data-entry' });
  });

  it('never blocks a data entry officer on a lapsed paid plan', () => {
    const lapsed = user({ role: 'data_entry', subscriptionPlan: 'starter', subscriptionStatus: 'cancelled' });
    expect(resolveGuard('/data-entry', lapsed, NOW)).toEqual({ type: 'allow' });
  });

  it.each([free, admin, paidActive])('sends other roles on /data-entry to /dashboard', (who) => {
    expect(resolveGuard('/data-entry', who, NOW)).toEqual({ type: 'redirect', to: '/dashboard' });
  });
});

describe('resolveGuard — subscription', () => {
  it('lets a free-plan user in everywhere (PRODUCT: the free plan is usable)', () => {
    expect(resolveGuard('/dashboard', free, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard('/settings', free, NOW)).toEqual({ type: 'allow' });
  });

  it('lets an active paid subscriber in', () => {
    expect(resolveGuard('/dashboard', paidActive, NOW)).toEqual({ type: 'allow' });
  });

  it.each([
    ['incomplete', FUTURE, 'incomplete'],
    ['cancelled', FUTURE, 'cancelled'],
    ['past_due', FUTURE, 'past_due'],
    ['active', PAST, 'expired'],
    ['active', null, 'expired'],
  ] as const)('blocks a paid plan with status %s (period end %s) as %s', (status, periodEnd, issue) => {
    const who = user({
      subscriptionPlan: 'professional',
      subscriptionStatus: status,
      subscriptionCurrentPeriodEnd: periodEnd,
    });
    for (const path of [
      '/dashboard',
      '/settings',
      '/campaigns',
      '/lead-discovery',
      '/subscription',
      '/analytics',
    ]) {
      expect(resolveGuard(path, who, NOW)).toEqual({ type: 'blocked', issue });
    }
  });

  it.each(['/pricing', '/payment', '/help', '/status', '/knowledge-base', '/help/getting-started'])(
    'leaves the exempt route %s open to a lapsed subscriber',
    (path) => {
      const lapsed = user({ subscriptionPlan: 'starter', subscriptionStatus: 'past_due' });
      expect(resolveGuard(path, lapsed, NOW)).toEqual({ type: 'allow' });
    },
  );

  it('redirects a lapsed subscriber away from admin routes before blocking', () => {
    const lapsed = user({ subscriptionPlan: 'starter', subscriptionStatus: 'incomplete' });
    expect(resolveGuard('/admin/users', lapsed, NOW)).toEqual({ type: 'redirect', to: '/dashboard' });
  });

  it('ignores a trailing slash', () => {
    const lapsed = user({ subscriptionPlan: 'starter', subscriptionStatus: 'cancelled' });
    expect(resolveGuard('/pricing/', lapsed, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard('/admin/users/', free, NOW)).toEqual({ type: 'redirect', to: '/dashboard' });
  });
});

describe('resolveGuard — billing routes (public as well as signed in)', () => {
  const BILLING = ['/pricing', '/checkout', '/payment', '/payment-success', '/complete-signup'];

  it.each(BILLING)('opens %s signed out', (path) => {
    expect(resolveGuard(path, null, NOW)).toEqual({ type: 'allow' });
  });

  it.each(BILLING)('opens %s to a subscriber whose payment is incomplete', (path) => {
    const unpaid = user({ subscriptionPlan: 'professional', subscriptionStatus: 'incomplete' });
    expect(resolveGuard(path, unpaid, NOW)).toEqual({ type: 'allow' });
    expect(resolveGuard(path, free, NOW)).toEqual({ type: 'allow' });
  });

  it('keeps /subscription and /upgrade signed-in only and behind the subscription check', () => {
    expect(resolveGuard('/subscription', null, NOW)).toEqual({ type: 'redirect', to: '/auth' });
    expect(resolveGuard('/upgrade', null, NOW)).toEqual({ type: 'redirect', to: '/auth' });
    expect(resolveGuard('/upgrade', paidActive, NOW)).toEqual({ type: 'allow' });
  });

  it.each(BILLING)('still sends a data entry officer on %s to /data-entry', (path) => {
    expect(resolveGuard(path, dataEntry, NOW)).toEqual({ type: 'redirect', to: '/data-entry' });
  });
});
