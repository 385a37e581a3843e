import type { User } from '@shared/auth';
import type { BillingInterval, PlanId } from '@shared/plans';

import { paymentHref, planRank, signUpHref } from '@/lib/billing';

export type PlanAction =
  | { type: 'navigate'; to: string; label: string }
  | { type: 'select-free'; label: string }
  | { type: 'none'; label: string };

export function upgradeHref(plan: PlanId, interval: BillingInterval): string {
  return `/upgrade?${new URLSearchParams({ plan, interval }).toString()}`;
}

/**
 * What a plan's button on /pricing does. Signed out: sign up with the plan in the URL.
 * Signed in: a paid plan goes to /payment (an upgrade there is prorated by the server); Free goes to the
 * dashboard, or takes an unpaid account back to Free. A running paid subscription changes down (or
 * between intervals) on /upgrade, where the change waits for the period end.
 */
export function planActionFor({
  plan,
  interval,
  user,
  paidAndValid,
}: {
  plan: PlanId;
  interval: BillingInterval;
  user: Pick<User, 'subscriptionPlan' | 'subscriptionInterval'> | null;
  /** The user has a paid plan with a valid (active, unexpired) subscription. */
  paidAndValid: boolean;
}): PlanAction {
  if (!user) {
    return plan === 'free'
      ? { type: 'navigate', to: '/auth?mode=signup', label: 'Start for free' }
      : { type: 'navigate', to: signUpHref(plan, interval), label: 'Choose plan' };
  }

  if (plan === 'free') {
    if (user.subscriptionPlan === 'free')
      return { type: 'navigate', to: '/dashboard', label: 'Go to dashboard' };
    if (paidAndValid) return { type: 'navigate', to: upgradeHref('free', 'monthly'), label: 'Downgrade' };
    return { type: 'select-free', label: 'Switch to Free' };
  }

  if (!paidAndValid) return { type: 'navigate', to: paymentHref(plan, interval), label: 'Choose plan' };

  const current = user.subscriptionPlan;
  if (plan === current) {
    if (user.subscriptionInterval === interval || !user.subscriptionInterval) {
      return { type: 'none', label: 'Current plan' };
    }
    return {
      type: 'navigate',
      to: upgradeHref(plan, interval),
      label: interval === 'annual' ? 'Switch to annual' : 'Switch to monthly',
    };
  }
  if (planRank(plan) > planRank(current)) {
    return { type: 'navigate', to: paymentHref(plan, interval), label: 'Upgrade' };
  }
  return { type: 'navigate', to: upgradeHref(plan, interval), label: 'Downgrade' };
}

export type PlanChangeKind = 'current' | 'new' | 'upgrade' | 'downgrade' | 'to-annual' | 'to-monthly';

/**
 * How moving to `target` relates to the running subscription. Without a valid paid subscription every
 * paid plan is a new payment; with one, a higher plan (or monthly → annual) is paid now with credit for
 * the unused time, and a lower plan (or annual → monthly, or Free) waits for the period end.
 */
export function classifyPlanChange({
  currentPlan,
  currentInterval,
  paidAndValid,
  target,
  interval,
}: {
  currentPlan: PlanId;
  currentInterval: BillingInterval | null;
  paidAndValid: boolean;
  target: PlanId;
  interval: BillingInterval;
}): PlanChangeKind {
  if (!paidAndValid) {
    if (target === 'free') return currentPlan === 'free' ? 'current' : 'downgrade';
    return 'new';
  }
  if (target === currentPlan) {
    if (!currentInterval || currentInterval === interval) return 'current';
    return interval === 'annual' ? 'to-annual' : 'to-monthly';
  }
  return planRank(target) > planRank(currentPlan) ? 'upgrade' : 'downgrade';
}

/** Changes that are paid for now (the server answers with a payment to open). */
export function isImmediateChange(kind: PlanChangeKind): boolean {
  return kind === 'upgrade' || kind === 'to-annual';
}
