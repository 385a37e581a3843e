import { ADMIN_SUBSCRIPTION_STATES, ORDER_STATUSES, PAID_PLAN_IDS } from '@shared/payments';
import { PLAN_IDS } from '@shared/plans';
import { isoDay, type ListStateConfig, oneOf } from '@/lib/url-list-state';

export const ORDERS_PAGE_SIZE = 25;
export const SUBSCRIPTIONS_PAGE_SIZE = 25;

/** The orders screen's URL state (see useUrlListState): search, status, plan and a date range. */
export const ORDER_LIST = {
  defaultPageSize: ORDERS_PAGE_SIZE,
  filters: {
    status: oneOf(ORDER_STATUSES),
    plan: oneOf(PLAN_IDS),
    /** YYYY-MM-DD, inclusive */
    from: isoDay,
    to: isoDay,
  },
} satisfies ListStateConfig<'status' | 'plan' | 'from' | 'to'>;

/** The date range as asked; a reversed one is read the way it was meant. */
export function orderedRange(from: string | undefined, to: string | undefined): [string?, string?] {
  return from && to && from > to ? [to, from] : [from, to];
}

/** The subscriptions list's URL state: search, state and paid plan. */
export const SUBSCRIPTION_LIST = {
  defaultPageSize: SUBSCRIPTIONS_PAGE_SIZE,
  filters: { status: oneOf(ADMIN_SUBSCRIPTION_STATES), plan: oneOf(PAID_PLAN_IDS) },
} satisfies ListStateConfig<'status' | 'plan'>;

export type AdminSubscriptionState = (typeof ADMIN_SUBSCRIPTION_STATES)[number];
export type PaidPlan = (typeof PAID_PLAN_IDS)[number];

export type SubscriptionsTab = 'subscriptions' | 'plans';

/** The subscriptions screen's tab (kept in the same URL as the list, which leaves it alone). */
export function readSubscriptionsTab(params: URLSearchParams): SubscriptionsTab {
  return params.get('tab') === 'plans' ? 'plans' : 'subscriptions';
}

/** Naira typed into the plan editor ("15,000" or "15000.50") as whole kobo, or null when it is not a price. */
export function parseNairaInput(text: string): number | null {
  const cleaned = text.replace(/[₦,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** A limit typed into the plan editor: a whole number, or -1 / "unlimited" / empty for unlimited. */
/** A plan's country or category limit as typed: All (or -1, empty) for every one, None for 0, or N. */
export function parseScopeLimitInput(text: string): number | null {
  const cleaned = text.replace(/[,\s]/g, '').toLowerCase();
  if (cleaned === 'all') return -1;
  if (cleaned === 'none') return 0;
  return parseLimitInput(text);
}

export function parseLimitInput(text: string): number | null {
  const cleaned = text.replace(/[,\s]/g, '').toLowerCase();
  if (cleaned === '' || cleaned === '-1' || cleaned === 'unlimited' || cleaned === '∞') return -1;
  if (!/^\d+$/.test(cleaned)) return null;
  return Number(cleaned);
}
