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

function positiveInt(value: string | null): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 1 ? parsed : 1;
}

export type AdminSubscriptionState = (typeof ADMIN_SUBSCRIPTION_STATES)[number];
export type PaidPlan = (typeof PAID_PLAN_IDS)[number];

export interface SubscriptionListParams {
  tab: 'subscriptions' | 'plans';
  search: string;
  status?: AdminSubscriptionState;
  plan?: PaidPlan;
  page: number;
}

export function readSubscriptionListParams(params: URLSearchParams): SubscriptionListParams {
  const status = params.get('status');
  const plan = params.get('plan');
  return {
    tab: params.get('tab') === 'plans' ? 'plans' : 'subscriptions',
    search: params.get('q') ?? '',
    status:
      status && (ADMIN_SUBSCRIPTION_STATES as readonly string[]).includes(status)
        ? (status as AdminSubscriptionState)
        : undefined,
    plan: plan && (PAID_PLAN_IDS as readonly string[]).includes(plan) ? (plan as PaidPlan) : undefined,
    page: positiveInt(params.get('page')),
  };
}

export function writeSubscriptionListParams(state: SubscriptionListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (state.tab !== 'subscriptions') params.set('tab', state.tab);
  if (state.search.trim()) params.set('q', state.search.trim());
  if (state.status) params.set('status', state.status);
  if (state.plan) params.set('plan', state.plan);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** Naira typed into the plan editor ("15,000" or "15000.50") as whole kobo, or null when it is not a price. */
export function parseNairaInput(text: string): number | null {
  const cleaned = text.replace(/[₦,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** A limit typed into the plan editor: a whole number, or -1 / "unlimited" / empty for unlimited. */
export function parseLimitInput(text: string): number | null {
  const cleaned = text.replace(/[,\s]/g, '').toLowerCase();
  if (cleaned === '' || cleaned === '-1' || cleaned === 'unlimited' || cleaned === '∞') return -1;
  if (!/^\d+$/.test(cleaned)) return null;
  return Number(cleaned);
}
