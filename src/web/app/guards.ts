import type { Role } from '@shared/roles';
import {
  getSubscriptionIssue,
  hasValidSubscription,
  SUBSCRIPTION_EXEMPT_PATHS,
  type SubscriptionSubject,
} from '@shared/subscription';

import {
  DATA_ENTRY_ALLOWED_PATHS,
  DATA_ENTRY_PATH,
  getRoleHome,
  isAdminPath,
  isPathWithin,
  normalizePath,
} from '@/app/paths';

import type { BlockingIssue } from '@/lib/subscription-copy';

export type { BlockingIssue };

export type GuardResult =
  | { type: 'allow' }
  | { type: 'redirect'; to: string }
  | { type: 'blocked'; issue: BlockingIssue };

export type GuardUser = SubscriptionSubject & { role: Role };

/** Routes anyone may open signed out; `/` and `/auth` send a signed-in visitor to their role's home. */
export const PUBLIC_PATHS = ['/', '/auth', '/forgot-password', '/reset-password'] as const;
const SIGNED_IN_BOUNCE_PATHS = ['/', '/auth'] as const;

/**
 * The billing steps are public routes too. Signed out they open (the payment screen itself sends
 * the visitor to /auth with the plan kept); signed in they are steps towards a valid subscription, so a
 * subscriber never meets the blocked screen on them. Data entry officers still stay on their dashboard.
 */
export const PUBLIC_BILLING_PATHS = [
  '/pricing',
  '/checkout',
  '/payment',
  '/payment-success',
  '/complete-signup',
] as const;

/**
 * The support pages are public routes and signed-in routes alike. Any signed-in role may read them (a data
 * entry officer included), and they are exempt from the subscription-blocked screen.
 */
export const PUBLIC_SUPPORT_PATHS = ['/help', '/status', '/knowledge-base'] as const;

export function isPublicPath(pathname: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(normalizePath(pathname));
}

export function isPublicBillingPath(pathname: string): boolean {
  return (PUBLIC_BILLING_PATHS as readonly string[]).includes(normalizePath(pathname));
}

export function isPublicSupportPath(pathname: string): boolean {
  return (PUBLIC_SUPPORT_PATHS as readonly string[]).includes(normalizePath(pathname));
}

export function isSubscriptionExempt(pathname: string): boolean {
  const path = normalizePath(pathname);
  return SUBSCRIPTION_EXEMPT_PATHS.some((base) => isPathWithin(path, base));
}

const ALLOW: GuardResult = { type: 'allow' };

/**
 * The route rules by role and subscription (the free plan is never blocked), as one pure decision:
 * 1. signed out: public routes (billing steps and support pages included) open, every other route goes
 *    to /auth;
 * 2. signed in on `/` or `/auth`: the role's home; the password and support pages open to every role;
 * 3. data entry officers stay on /data-entry (and /help);
 * 4. /data-entry is for data entry officers only, admin routes for super admins only (others → /dashboard);
 * 5. a subscriber without a valid subscription sees the blocked screen except on the exempt routes.
 */
export function resolveGuard(
  pathname: string,
  user: GuardUser | null | undefined,
  now = new Date(),
): GuardResult {
  const path = normalizePath(pathname);

  if (!user) {
    return isPublicPath(path) || isPublicBillingPath(path) || isPublicSupportPath(path)
      ? ALLOW
      : { type: 'redirect', to: '/auth' };
  }

  if ((SIGNED_IN_BOUNCE_PATHS as readonly string[]).includes(path)) {
    return { type: 'redirect', to: getRoleHome(user.role) };
  }
  if (isPublicPath(path) || isPublicSupportPath(path)) return ALLOW;

  if (user.role === 'data_entry') {
    return DATA_ENTRY_ALLOWED_PATHS.some((base) => isPathWithin(path, base))
      ? ALLOW
      : { type: 'redirect', to: DATA_ENTRY_PATH };
  }

  if (isPathWithin(path, DATA_ENTRY_PATH)) return { type: 'redirect', to: '/dashboard' };

  if (isAdminPath(path) && user.role !== 'super_admin') return { type: 'redirect', to: '/dashboard' };

  if (user.role === 'super_admin' || isPublicBillingPath(path)) return ALLOW;

  if (!hasValidSubscription(user, now) && !isSubscriptionExempt(path)) {
    return { type: 'blocked', issue: getSubscriptionIssue(user, now) ?? 'expired' };
  }
  return ALLOW;
}
