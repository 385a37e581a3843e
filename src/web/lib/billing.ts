import { formatMoney, koboToNaira, annualSaving as sharedAnnualSaving } from '@shared/currency';
import { numberFormat } from '@shared/number-format';
import {
  type BillingInterval,
  isBillingInterval,
  isPlanId,
  PLAN_IDS,
  PLAN_NAMES,
  type PlanId,
} from '@shared/plans';

/** Features every plan includes, listed on the pricing and payment screens. */
export const INCLUDED_IN_ALL_PLANS = [
  'Custom contact list upload',
  'AI email templates',
  'AI cold email writing',
  '24/7 support',
] as const;

const AI_FEATURES: ReadonlySet<string> = new Set(['AI email templates', 'AI cold email writing']);

/**
 * What may be promised on this installation: AI writing only when a provider is connected (and until
 * that is known, nothing about AI is claimed).
 */
export function includedInAllPlans(capabilities: { aiWriting: boolean } | undefined): string[] {
  return INCLUDED_IN_ALL_PLANS.filter(
    (feature) => capabilities?.aiWriting === true || !AI_FEATURES.has(feature),
  );
}

/** Browser storage keys: the plan chosen on /pricing travels through sign-up to /payment. */
export const SELECTED_PLAN_KEY = 'selectedPlan';
export const SELECTED_INTERVAL_KEY = 'selectedInterval';

export interface PlanPrices {
  priceMonthly: number;
  priceAnnual: number;
}

/** Annual saving = 12 × monthly − annual, in minor units; never negative. */
export function annualSaving(plan: PlanPrices): number {
  return Math.max(0, sharedAnnualSaving(plan.priceMonthly, plan.priceAnnual));
}

/** The saving as a whole percentage of a year paid monthly (17 for "two months free"). */
export function annualSavingPercent(plan: PlanPrices): number {
  const yearly = plan.priceMonthly * 12;
  if (yearly <= 0) return 0;
  return Math.round((annualSaving(plan) / yearly) * 100);
}

/** What the interval costs, in minor units (kobo). */
export function priceForInterval(plan: PlanPrices, interval: BillingInterval): number {
  return interval === 'annual' ? plan.priceAnnual : plan.priceMonthly;
}

export function intervalLabel(interval: BillingInterval): string {
  return interval === 'annual' ? 'Annual' : 'Monthly';
}

export function perIntervalSuffix(interval: BillingInterval): string {
  return interval === 'annual' ? '/year' : '/month';
}

export function planDisplayName(plan: PlanId | string): string {
  return isPlanId(plan) ? PLAN_NAMES[plan] : plan;
}

/** The paid plans in ascending order, for comparisons ("is this an upgrade?"). */
export function planRank(plan: PlanId): number {
  return PLAN_IDS.indexOf(plan);
}

/** -1 (or a missing limit) is unlimited. */
export function isUnlimited(limit: number | null | undefined): boolean {
  return limit === undefined || limit === null || limit < 0;
}

/** "Unlimited", or the number with thousands separators and its unit ("10,000 recipients"). */
export function formatLimit(
  limit: number | null | undefined,
  unit?: { one: string; other: string },
  locale?: string,
): string {
  if (isUnlimited(limit)) return 'Unlimited';
  const value = limit as number;
  const number = numberFormat(locale ?? 'en-NG').format(value);
  if (!unit) return number;
  return `${number} ${value === 1 ? unit.one : unit.other}`;
}

export interface LimitSource {
  recipientLimit?: number | null;
  campaignLimit?: number | null;
  newsletterLimit?: number | null;
  senderAccountLimit?: number | null;
  countryLimit?: number | null;
  categoryLimit?: number | null;
  /** Directory contacts a month through /database-download; 0 = not included. */
  downloadLimit?: number | null;
  /** Addresses a month through "Verify list"; 0 = not included. */
  verificationLimit?: number | null;
}

export interface LimitRow {
  key: string;
  label: string;
  value: string;
}

/** The plan limits a buyer compares, in a fixed order; limits the plan does not state are left out. */
export function planLimitRows(plan: LimitSource): LimitRow[] {
  const rows: LimitRow[] = [
    {
      key: 'campaigns',
      label: 'Campaigns',
      value: withPeriod(formatLimit(plan.campaignLimit, { one: 'campaign', other: 'campaigns' })),
    },
    {
      key: 'newsletters',
      label: 'Newsletters',
      value: withPeriod(formatLimit(plan.newsletterLimit, { one: 'newsletter', other: 'newsletters' })),
    },
    {
      key: 'recipients',
      label: 'Recipients',
      value: formatLimit(plan.recipientLimit, { one: 'recipient', other: 'recipients' }),
    },
  ];
  if (plan.senderAccountLimit !== undefined) {
    rows.push({
      key: 'senders',
      label: 'Sender accounts',
      value: formatLimit(plan.senderAccountLimit, { one: 'sender account', other: 'sender accounts' }),
    });
  }
  if (plan.countryLimit !== undefined) {
    rows.push({
      key: 'countries',
      label: 'Countries',
      value: isUnlimited(plan.countryLimit)
        ? 'All countries'
        : formatLimit(plan.countryLimit, { one: 'country', other: 'countries' }),
    });
  }
  if (plan.categoryLimit !== undefined) {
    rows.push({
      key: 'categories',
      label: 'Business categories',
      value: isUnlimited(plan.categoryLimit)
        ? 'All categories'
        : formatLimit(plan.categoryLimit, { one: 'category', other: 'categories' }),
    });
  }
  return rows;
}

function withPeriod(value: string): string {
  return value === 'Unlimited' ? 'Unlimited' : `${value} / month`;
}

/** Sender rotation needs a second sender account (PRODUCT.md), so it comes with every paid plan. */
export function hasSenderRotation(plan: { id: PlanId; senderAccountLimit?: number | null }): boolean {
  if (plan.senderAccountLimit !== undefined && plan.senderAccountLimit !== null) {
    return isUnlimited(plan.senderAccountLimit) || plan.senderAccountLimit >= 2;
  }
  return plan.id !== 'free';
}

export interface PaymentParams {
  plan: PlanId | null;
  /** The raw value, so "a plan that does not exist" can be told from "no plan". */
  rawPlan: string | null;
  interval: BillingInterval;
  returning: boolean;
}

/** `plan`, `interval` (monthly by default) and `returning=true` from the payment URL. */
export function readPaymentParams(params: URLSearchParams): PaymentParams {
  const rawPlan = params.get('plan')?.trim() || null;
  const rawInterval = params.get('interval');
  return {
    plan: isPlanId(rawPlan) ? rawPlan : null,
    rawPlan,
    interval: isBillingInterval(rawInterval) ? rawInterval : 'monthly',
    returning: params.get('returning') === 'true',
  };
}

export function paymentHref(plan: PlanId, interval: BillingInterval, extra?: Record<string, string>): string {
  const search = new URLSearchParams({ plan, interval, ...extra });
  return `/payment?${search.toString()}`;
}

/** A signed-out buyer signs up with the plan in the URL; the auth screen sends them on to pay. */
export function signUpHref(plan: PlanId, interval: BillingInterval): string {
  const search = new URLSearchParams({ mode: 'signup', plan, interval });
  return `/auth?${search.toString()}`;
}

/** Where "Choose plan" leads: sign-up when signed out, /payment when signed in, free → dashboard. */
export function choosePlanHref(plan: PlanId, interval: BillingInterval, signedIn: boolean): string {
  if (!signedIn) return plan === 'free' ? '/auth?mode=signup' : signUpHref(plan, interval);
  return plan === 'free' ? '/dashboard' : paymentHref(plan, interval);
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function storage(): StorageLike | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    // Storage can be switched off (private modes, strict policies); the choice then lives in the URL only.
    return null;
  }
}

export function saveSelectedPlan(
  plan: PlanId,
  interval: BillingInterval,
  store: StorageLike | null = storage(),
): void {
  try {
    store?.setItem(SELECTED_PLAN_KEY, plan);
    store?.setItem(SELECTED_INTERVAL_KEY, interval);
  } catch {
    // A full or blocked storage only loses the convenience.
  }
}

export function readSelectedPlan(
  store: StorageLike | null = storage(),
): { plan: PlanId; interval: BillingInterval } | null {
  try {
    const plan = store?.getItem(SELECTED_PLAN_KEY);
    if (!isPlanId(plan)) return null;
    const interval = store?.getItem(SELECTED_INTERVAL_KEY);
    return { plan, interval: isBillingInterval(interval) ? interval : 'monthly' };
  } catch {
    return null;
  }
}

export function clearSelectedPlan(store: StorageLike | null = storage()): void {
  try {
    store?.removeItem(SELECTED_PLAN_KEY);
    store?.removeItem(SELECTED_INTERVAL_KEY);
  } catch {
    // Nothing to clear.
  }
}

function countLine(limit: number | null | undefined, one: string, other: string, perMonth: boolean): string {
  if (isUnlimited(limit)) return `Unlimited ${other}`;
  const text = formatLimit(limit, { one, other });
  return perMonth ? `${text} a month` : text;
}

/** The plan's limits as the short lines of a pricing card, biggest levers first. */
export function planFeatureLines(plan: LimitSource & { id: PlanId }): string[] {
  const lines = [
    countLine(plan.campaignLimit, 'campaign', 'campaigns', true),
    countLine(plan.newsletterLimit, 'newsletter', 'newsletters', true),
    countLine(plan.recipientLimit, 'recipient', 'recipients', false),
  ];
  if (plan.senderAccountLimit !== undefined) {
    lines.push(countLine(plan.senderAccountLimit, 'sender account', 'sender accounts', false));
  }
  if (plan.countryLimit !== undefined || plan.categoryLimit !== undefined) {
    if (isUnlimited(plan.countryLimit) && isUnlimited(plan.categoryLimit)) {
      lines.push('All countries and business categories');
    } else {
      const countries = isUnlimited(plan.countryLimit)
        ? 'All countries'
        : formatLimit(plan.countryLimit, { one: 'country', other: 'countries' });
      const categories = isUnlimited(plan.categoryLimit)
        ? 'all categories'
        : formatLimit(plan.categoryLimit, { one: 'category', other: 'categories' });
      lines.push(`${countries}, ${categories} in lead discovery`);
    }
  }
  if (plan.downloadLimit != null && plan.downloadLimit !== 0) {
    lines.push(
      isUnlimited(plan.downloadLimit)
        ? 'Unlimited database downloads'
        : `${formatLimit(plan.downloadLimit, { one: 'database contact', other: 'database contacts' })} to download a month`,
    );
  }
  if (plan.verificationLimit != null && plan.verificationLimit !== 0) {
    lines.push(
      isUnlimited(plan.verificationLimit)
        ? 'Unlimited email verification'
        : `${formatLimit(plan.verificationLimit, { one: 'email address', other: 'email addresses' })} verified a month`,
    );
  }
  if (hasSenderRotation(plan)) lines.push('Smart sender rotation');
  return lines;
}

/** Kobo as naira, the currency every payment is charged in (shown without decimals). */
export function formatNaira(kobo: number): string {
  return formatMoney(koboToNaira(kobo), 'NGN');
}

/** "Visa •••• 4081", or null when the payment left no card details. */
export function describeCard(
  brand: string | null | undefined,
  last4: string | null | undefined,
): string | null {
  if (!brand && !last4) return null;
  const name = brand ? brand.trim().replace(/^\w/, (c) => c.toUpperCase()) : 'Card';
  return last4 ? `${name} •••• ${last4}` : name;
}

export type BadgeTone = 'success' | 'warning' | 'destructive' | 'secondary';

export interface StatusBadge {
  label: string;
  tone: BadgeTone;
}

/**
 * A subscription's state as its badge reads: cancelling (active until the period end), active, the
 * problem states (expired, incomplete, cancelled, past due), or Free.
 */
export function subscriptionBadge(
  sub: { planId: PlanId; status: string | null; cancelAtPeriodEnd: boolean; currentPeriodEnd: string | null },
  now = new Date(),
): StatusBadge {
  if (sub.planId === 'free') return { label: 'Free', tone: 'secondary' };
  const ended = !sub.currentPeriodEnd || new Date(sub.currentPeriodEnd).getTime() <= now.getTime();
  switch (sub.status) {
    case 'active':
      if (ended) return { label: 'Expired', tone: 'destructive' };
      return sub.cancelAtPeriodEnd
        ? { label: 'Cancelling', tone: 'warning' }
        : { label: 'Active', tone: 'success' };
    case 'incomplete':
    case null:
    case 'none':
      return { label: 'Payment incomplete', tone: 'warning' };
    case 'past_due':
      return { label: 'Past due', tone: 'destructive' };
    case 'cancelled':
      return { label: 'Cancelled', tone: 'secondary' };
    case 'expired':
      return { label: 'Expired', tone: 'destructive' };
    default:
      return {
        label: sub.status.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase()),
        tone: 'secondary',
      };
  }
}

export const ORDER_STATUS_BADGE: Record<string, StatusBadge> = {
  success: { label: 'Paid', tone: 'success' },
  pending: { label: 'Pending', tone: 'warning' },
  failed: { label: 'Failed', tone: 'destructive' },
  abandoned: { label: 'Abandoned', tone: 'secondary' },
  refunded: { label: 'Refunded', tone: 'secondary' },
};

export const ORDER_KIND_LABEL: Record<string, string> = {
  new: 'New subscription',
  upgrade: 'Upgrade',
  renewal: 'Renewal',
};
