import type { Database } from '@server/db/client';
import { users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import type { PlanLimitKind, PricingPlan, UserPlan } from '@shared/payments';
import { type BillingInterval, isPlanId, type PlanId } from '@shared/plans';
import type { Role } from '@shared/roles';
import { hasValidSubscription } from '@shared/subscription';
import { eq } from 'drizzle-orm';
import { getPricingPlan, plansInOrder } from './plans.service';

/** A plan's limits, `-1` meaning unlimited (or all countries / categories). */
export interface PlanLimits {
  /** the plan whose limits apply now */
  planId: PlanId;
  planName: string;
  campaigns: number;
  newsletters: number;
  recipients: number;
  senderAccounts: number;
  countries: number;
  categories: number;
  /** directory records a month through /database-download */
  downloads: number;
  /** addresses a month through "Verify list" */
  verifications: number;
}

const LIMIT_COLUMN: Record<PlanLimitKind, keyof PricingPlan> = {
  campaigns: 'campaignLimit',
  newsletters: 'newsletterLimit',
  recipients: 'recipientLimit',
  senderAccounts: 'senderAccountLimit',
  countries: 'countryLimit',
  categories: 'categoryLimit',
  downloads: 'downloadLimit',
  verifications: 'verificationLimit',
};

/** How each limit reads in a sentence: singular, plural, and the period it counts over. */
const LIMIT_WORDS: Record<PlanLimitKind, { one: string; many: string; per: string; all?: string }> = {
  campaigns: { one: 'campaign', many: 'campaigns', per: ' a month' },
  newsletters: { one: 'newsletter', many: 'newsletters', per: ' a month' },
  recipients: { one: 'recipient', many: 'recipients', per: '' },
  senderAccounts: { one: 'sender account', many: 'sender accounts', per: '' },
  countries: { one: 'country', many: 'countries', per: '', all: 'all countries' },
  categories: { one: 'business category', many: 'business categories', per: '', all: 'all categories' },
  downloads: { one: 'contact download', many: 'contact downloads', per: ' a month' },
  verifications: { one: 'address verified', many: 'addresses verified', per: ' a month' },
};

async function loadUser(db: Database, userId: string) {
  const [row] = await db
    .select({
      role: users.role,
      subscriptionPlan: users.subscriptionPlan,
      subscriptionStatus: users.subscriptionStatus,
      subscriptionInterval: users.subscriptionInterval,
      subscriptionCurrentPeriodEnd: users.subscriptionCurrentPeriodEnd,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('User not found');
  return row;
}

/**
 * The plan whose limits apply: the user's plan while its subscription is valid; a paid plan that is not
 * paid for (incomplete, past due, cancelled, expired) gets the Free plan's limits until it is.
 */
function limitsPlanOf(row: Awaited<ReturnType<typeof loadUser>>): PlanId {
  const plan = isPlanId(row.subscriptionPlan) ? row.subscriptionPlan : 'free';
  const valid = hasValidSubscription(
    {
      role: row.role as Role,
      subscriptionPlan: plan,
      subscriptionStatus: row.subscriptionStatus,
      subscriptionCurrentPeriodEnd: row.subscriptionCurrentPeriodEnd?.toISOString() ?? null,
    },
    now(),
  );
  return valid ? plan : 'free';
}

function toLimits(plan: PricingPlan): PlanLimits {
  return {
    planId: plan.id,
    planName: plan.name,
    campaigns: plan.campaignLimit,
    newsletters: plan.newsletterLimit,
    recipients: plan.recipientLimit,
    senderAccounts: plan.senderAccountLimit,
    countries: plan.countryLimit,
    categories: plan.categoryLimit,
    downloads: plan.downloadLimit,
    verifications: plan.verificationLimit,
  };
}

/** The limits other features check before creating something. */
export async function getPlanLimits({ db, userId }: { db: Database; userId: string }): Promise<PlanLimits> {
  const row = await loadUser(db, userId);
  return toLimits(await getPricingPlan({ db, id: limitsPlanOf(row) }));
}

/** GET /api/user/plan. */
export async function getUserPlan({ db, userId }: { db: Database; userId: string }): Promise<UserPlan> {
  const row = await loadUser(db, userId);
  const planId = isPlanId(row.subscriptionPlan) ? row.subscriptionPlan : 'free';
  const limitsPlanId = limitsPlanOf(row);
  const [plan, limitsPlan] = await Promise.all([
    getPricingPlan({ db, id: planId }),
    getPricingPlan({ db, id: limitsPlanId }),
  ]);
  return {
    planId,
    name: plan.name,
    limitsPlanId,
    newsletterLimit: limitsPlan.newsletterLimit,
    campaignLimit: limitsPlan.campaignLimit,
    recipientLimit: limitsPlan.recipientLimit,
    senderAccountLimit: limitsPlan.senderAccountLimit,
    countryLimit: limitsPlan.countryLimit,
    categoryLimit: limitsPlan.categoryLimit,
    downloadLimit: limitsPlan.downloadLimit,
    verificationLimit: limitsPlan.verificationLimit,
    subscriptionStatus: row.subscriptionStatus,
    subscriptionInterval: (row.subscriptionInterval ?? null) as BillingInterval | null,
    subscriptionCurrentPeriodEnd: row.subscriptionCurrentPeriodEnd?.toISOString() ?? null,
  };
}

export function isUnlimited(limit: number): boolean {
  return limit < 0;
}

const number = (n: number) => new Intl.NumberFormat('en-US').format(n);

function amountPhrase(kind: PlanLimitKind, limit: number): string {
  const words = LIMIT_WORDS[kind];
  if (limit < 0) return words.all ?? `unlimited ${words.many}`;
  return `${number(limit)} ${limit === 1 ? words.one : words.many}`;
}

/**
 * The message of a refused action: "Your Free plan allows 3 campaigns a month. Upgrade to Starter for 20."
 */
export function limitMessage(input: {
  kind: PlanLimitKind;
  plan: Pick<PricingPlan, 'name'>;
  limit: number;
  next: (Pick<PricingPlan, 'name'> & { limit: number }) | null;
}): string {
  const words = LIMIT_WORDS[input.kind];
  const allows = `Your ${input.plan.name} plan allows ${amountPhrase(input.kind, input.limit)}${words.per}.`;
  if (!input.next) return `${allows} Contact us if you need more.`;
  const nextAmount =
    input.next.limit < 0 ? (words.all ?? `unlimited ${words.many}`) : number(input.next.limit);
  return `${allows} Upgrade to ${input.next.name} for ${nextAmount}.`;
}

/**
 * Throws AppError('forbidden') when `used + adding` would pass the caller's plan limit, naming the limit
 * and the plan that would allow it. `used` is what the caller already has (this month for per-month limits).
 */
export async function assertWithinLimit(options: {
  db: Database;
  userId: string;
  limit: PlanLimitKind;
  used: number;
  adding?: number;
}): Promise<void> {
  const adding = options.adding ?? 1;
  const limits = await getPlanLimits({ db: options.db, userId: options.userId });
  const allowed = limits[options.limit];
  if (allowed < 0 || options.used + adding <= allowed) return;
  const column = LIMIT_COLUMN[options.limit];
  const plans = (await plansInOrder({ db: options.db })).filter((p) => p.active);
  const current = plans.find((p) => p.id === limits.planId);
  const needed = options.used + adding;
  const next =
    plans
      .filter((p) => p.sortOrder > (current?.sortOrder ?? -1) && p.id !== limits.planId)
      .find((p) => {
        const value = p[column] as number;
        return value < 0 || value >= needed;
      }) ??
    plans.find((p) => {
      const value = p[column] as number;
      return p.sortOrder > (current?.sortOrder ?? -1) && (value < 0 || value > allowed);
    }) ??
    null;
  throw new AppError(
    'forbidden',
    limitMessage({
      kind: options.limit,
      plan: { name: limits.planName },
      limit: allowed,
      next: next ? { name: next.name, limit: next[column] as number } : null,
    }),
    { reason: 'plan_limit', limit: options.limit, allowed, planId: limits.planId },
  );
}
