import { type BillingInterval, isBillingInterval, isPlanId, type PlanId } from '@shared/plans';
import type { Role } from '@shared/roles';

import { getRoleHome } from '@/app/paths';

export interface AuthUrlParams {
  email: string;
  plan: PlanId | null;
  interval: BillingInterval;
  /**
   * `mode=signup`, an email or a plan in the URL open the create-account side; `mode=login` (the
   * payment screen's "Please Sign In") opens sign in even with a plan.
   */
  startOnSignUp: boolean;
}

export function readAuthParams(params: URLSearchParams): AuthUrlParams {
  const email = params.get('email')?.trim() ?? '';
  const rawPlan = params.get('plan');
  const plan = isPlanId(rawPlan) ? rawPlan : null;
  const rawInterval = params.get('interval');
  const interval = isBillingInterval(rawInterval) ? rawInterval : 'monthly';
  const mode = params.get('mode');
  const startOnSignUp = mode !== 'login' && (mode === 'signup' || email !== '' || rawPlan !== null);
  return { email, plan, interval, startOnSignUp };
}

export function paymentPath(plan: PlanId, interval: BillingInterval, returning = false): string {
  const search = new URLSearchParams({ plan, interval });
  if (returning) search.set('returning', 'true');
  return `/payment?${search.toString()}`;
}

/**
 * Where sign-in leads when no payment is pending. Data entry officers and super admins go to their
 * own dashboards; a subscriber who arrived with a paid plan in the URL goes to pay for it, else /dashboard.
 */
export function destinationAfterSignIn(role: Role, plan: PlanId | null, interval: BillingInterval): string {
  if (role === 'user' && plan && plan !== 'free') return paymentPath(plan, interval);
  return getRoleHome(role);
}

/** After registration a paid plan goes to /payment, anything else to /dashboard. */
export function destinationAfterRegistration(plan: PlanId | null, interval: BillingInterval): string {
  return plan && plan !== 'free' ? paymentPath(plan, interval) : '/dashboard';
}
