import { ADMIN_SUBSCRIPTION_STATES, ORDER_STATUSES, type OrderStatus, PAID_PLAN_IDS } from '@shared/payments';
import { isPlanId, type PlanId } from '@shared/plans';

export const ORDERS_PAGE_SIZE = 25;
export const SUBSCRIPTIONS_PAGE_SIZE = 25;

export interface OrderListParams {
  search: string;
  status?: OrderStatus;
  plan?: PlanId;
  /** YYYY-MM-DD, inclusive */
  from?: string;
  to?: string;
  page: number;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function positiveInt(value: string | null): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 1 ? parsed : 1;
}

function isoDay(value: string | null): string | undefined {
  if (!value || !ISO_DAY.test(value)) return undefined;
  return Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()) ? undefined : value;
}

/** The orders screen's state from the URL; anything a hand-edited link got wrong is dropped. */
export function readOrderListParams(params: URLSearchParams): OrderListParams {
  const status = params.get('status');
  const plan = params.get('plan');
  let from = isoDay(params.get('from'));
  let to = isoDay(params.get('to'));
  // A reversed range is read the way it was meant.
  if (from && to && from > to) [from, to] = [to, from];
  return {
    search: params.get('q') ?? '',
    status:
      status && (ORDER_STATUSES as readonly string[]).includes(status) ? (status as OrderStatus) : undefined,
    plan: isPlanId(plan) ? plan : undefined,
    from,
    to,
    page: positiveInt(params.get('page')),
  };
}

export function writeOrderListParams(state: OrderListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('q', state.search.trim());
  if (state.status) params.set('status', state.status);
  if (state.plan) params.set('plan', state.plan);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
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
