import { PLAN_NAMES, type PlanId } from '@shared/plans';

/** The welcome header greets the user by the part of the email before the @ sign. */
export function emailHandle(email: string): string {
  const at = email.indexOf('@');
  const handle = at === -1 ? email : email.slice(0, at);
  return handle.trim() || email;
}

/** The name to greet: the first name given at sign-up, or the email's handle when there is none. */
export function greetingName(user: { firstName: string; email: string }): string {
  return user.firstName.trim() || emailHandle(user.email);
}

/** An account this new, never greeted in this browser, is on its first visit. */
const FIRST_VISIT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * "Welcome" on the first visit, "Welcome back" after: a visit is the first when this browser has not
 * greeted the user before and the account was created within the last day (so someone returning on a
 * new device is still welcomed back).
 */
export function welcomeWord({
  createdAt,
  greetedBefore,
  now,
}: {
  createdAt: string;
  greetedBefore: boolean;
  now: Date;
}): 'Welcome' | 'Welcome back' {
  if (greetedBefore) return 'Welcome back';
  const age = now.getTime() - new Date(createdAt).getTime();
  return Number.isFinite(age) && age < FIRST_VISIT_WINDOW_MS ? 'Welcome' : 'Welcome back';
}

export const greetedKey = (userId: string) => `tambari.greeted.${userId}`;

/** `plan` is display only (free or premium); it drives the badge. */
export function planBadgeLabel(plan: 'free' | 'premium'): string {
  return plan === 'premium' ? 'Premium Plan' : 'Free Plan';
}

/** The free plan's fixed limits. A paid plan's numeric limits come from the plan endpoint. */
export const FREE_PLAN_LIMITS = { newsletters: 5, campaigns: 3, countries: 1, categories: 1 } as const;

export interface PlanLimitRow {
  label: string;
  value: string;
}

/** A paid plan's limits from GET /api/user/plan; -1 or a missing value is unlimited. */
export interface PlanLimits {
  newsletterLimit?: number | null;
  campaignLimit?: number | null;
  recipientLimit?: number | null;
  senderAccountLimit?: number | null;
}

function limitValue(limit: number | null | undefined, suffix = ''): string {
  if (limit === undefined || limit === null || limit < 0) return 'Unlimited';
  return `${new Intl.NumberFormat('en-NG').format(limit)}${suffix}`;
}

export function planLimitRows(plan: PlanId, limits?: PlanLimits): PlanLimitRow[] {
  if (plan === 'free') {
    return [
      { label: 'Newsletters', value: `${FREE_PLAN_LIMITS.newsletters} per month` },
      { label: 'Campaigns', value: `${FREE_PLAN_LIMITS.campaigns} per month` },
      { label: 'Countries', value: `${FREE_PLAN_LIMITS.countries} country` },
      { label: 'Business categories', value: `${FREE_PLAN_LIMITS.categories} category` },
    ];
  }
  const coverage = [
    { label: 'Countries', value: 'All countries' },
    { label: 'Business categories', value: 'All categories' },
  ];
  if (!limits) return coverage;
  return [
    { label: 'Newsletters', value: limitValue(limits.newsletterLimit, ' per month') },
    { label: 'Campaigns', value: limitValue(limits.campaignLimit, ' per month') },
    { label: 'Recipients', value: limitValue(limits.recipientLimit) },
    ...(limits.senderAccountLimit !== undefined
      ? [{ label: 'Sender accounts', value: limitValue(limits.senderAccountLimit) }]
      : []),
    ...coverage,
  ];
}

export type StatusTone = 'success' | 'warning' | 'danger' | 'neutral';

export interface StatusDisplay {
  label: string;
  tone: StatusTone;
}

const STATUS_DISPLAY: Record<string, StatusDisplay> = {
  active: { label: 'Active', tone: 'success' },
  incomplete: { label: 'Payment incomplete', tone: 'warning' },
  past_due: { label: 'Past due', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
  expired: { label: 'Expired', tone: 'danger' },
};

function humanise(value: string): string {
  const spaced = value.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * The subscription status as a user reads it. The free plan needs no payment, so it is always active;
 * an active paid plan whose period has ended is shown as expired.
 */
export function subscriptionStatusDisplay(
  plan: PlanId,
  status: string | null,
  periodEnd: string | null,
  now = new Date(),
): StatusDisplay {
  if (plan === 'free') return STATUS_DISPLAY.active!;
  if (!status) return { label: 'Not started', tone: 'warning' };
  if (status === 'active' && (!periodEnd || new Date(periodEnd).getTime() <= now.getTime())) {
    return STATUS_DISPLAY.expired!;
  }
  return STATUS_DISPLAY[status] ?? { label: humanise(status), tone: 'neutral' };
}

/** How the period end is introduced: a future date renews (or ends, once cancelled); a past one ended. */
export function periodEndLabel(status: string | null, periodEnd: string, now = new Date()): string {
  const inFuture = new Date(periodEnd).getTime() > now.getTime();
  if (!inFuture) return 'Ended on';
  return status === 'cancelled' ? 'Access until' : 'Renews on';
}

export function planName(plan: PlanId): string {
  return PLAN_NAMES[plan];
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' }).format(date);
}
