import type { Database } from '@server/db/client';
import { type orders, subscriptions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import type { Services } from '@server/services';
import type { Payment, Subscription } from '@shared/payments';
import { type BillingInterval, isBillingInterval, isPlanId, PLAN_NAMES, type PlanId } from '@shared/plans';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { getPricingPlan, priceFor } from '../plans/plans.service';

/** What the payment services need: the database, Paystack (null when unconfigured), system mail, settings. */
export type BillingServices = Pick<Services, 'db' | 'paystack' | 'mailer' | 'env'> & {
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
};

export type UserRow = typeof users.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** One calendar month or year later, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addInterval(from: Date, interval: BillingInterval, times = 1): Date {
  const date = new Date(from.getTime());
  const day = date.getUTCDate();
  date.setUTCDate(1);
  if (interval === 'annual') date.setUTCFullYear(date.getUTCFullYear() + times);
  else date.setUTCMonth(date.getUTCMonth() + times);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date;
}

export function requirePaystack(services: Pick<BillingServices, 'paystack'>) {
  if (!services.paystack) {
    throw new AppError('unavailable', 'Payments are not configured on this server. Please contact support.');
  }
  return services.paystack;
}

export async function getUserRow(db: Database, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound('User not found');
  return row;
}

export async function getSubscriptionRow(db: Database, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  return row ?? null;
}

/** Creates the user's billing row if missing; returns it. */
export async function ensureSubscriptionRow(db: Database, userId: string): Promise<SubscriptionRow> {
  await db.insert(subscriptions).values({ userId }).onConflictDoNothing({ target: subscriptions.userId });
  return (await getSubscriptionRow(db, userId))!;
}

export function planOf(user: Pick<UserRow, 'subscriptionPlan'>): PlanId {
  return isPlanId(user.subscriptionPlan) ? user.subscriptionPlan : 'free';
}

export function intervalOf(user: Pick<UserRow, 'subscriptionInterval'>): BillingInterval {
  return isBillingInterval(user.subscriptionInterval) ? user.subscriptionInterval : 'monthly';
}

/** A paid plan, status active and a period end still ahead: the user has paid time left. */
export function hasRunningPeriod(user: UserRow, at = now()): boolean {
  return (
    planOf(user) !== 'free' &&
    user.subscriptionStatus === 'active' &&
    !!user.subscriptionCurrentPeriodEnd &&
    user.subscriptionCurrentPeriodEnd.getTime() > at.getTime()
  );
}

/** When the current period began: recorded at activation, else one interval before its end. */
export function periodStartOf(user: UserRow, sub: SubscriptionRow | null): Date | null {
  if (sub?.currentPeriodStart) return sub.currentPeriodStart;
  if (!user.subscriptionCurrentPeriodEnd) return null;
  return addInterval(user.subscriptionCurrentPeriodEnd, intervalOf(user), -1);
}

/**
 * The unused value of the running period, in whole kobo: its price × the fraction of it still ahead.
 * Zero without a running period.
 */
export async function unusedCredit(
  db: Database,
  user: UserRow,
  sub: SubscriptionRow | null,
): Promise<number> {
  if (!hasRunningPeriod(user)) return 0;
  const end = user.subscriptionCurrentPeriodEnd!.getTime();
  const start = periodStartOf(user, sub)!.getTime();
  const length = end - start;
  if (length <= 0) return 0;
  const fraction = Math.min(1, Math.max(0, (end - now().getTime()) / length));
  const plan = await getPricingPlan({ db, id: planOf(user) });
  return Math.floor(priceFor(plan, intervalOf(user)) * fraction);
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export async function toSubscriptionView(db: Database, userId: string): Promise<Subscription> {
  const user = await getUserRow(db, userId);
  const sub = await getSubscriptionRow(db, userId);
  const planId = planOf(user);
  const plan = await getPricingPlan({ db, id: planId });
  const interval =
    planId === 'free'
      ? null
      : isBillingInterval(user.subscriptionInterval)
        ? user.subscriptionInterval
        : null;
  const pendingPlanId = sub?.pendingPlan && isPlanId(sub.pendingPlan) ? sub.pendingPlan : null;
  const pendingInterval =
    sub?.pendingInterval && isBillingInterval(sub.pendingInterval) ? sub.pendingInterval : null;
  let nextChargeAmount: number | null = null;
  let nextChargeDate: string | null = null;
  const cancelAtPeriodEnd = sub?.cancelAtPeriodEnd ?? false;
  if (planId !== 'free' && interval) {
    const targetPlanId = pendingPlanId ?? planId;
    const targetInterval = pendingInterval ?? interval;
    if (user.subscriptionStatus === 'active' && !cancelAtPeriodEnd && targetPlanId !== 'free') {
      const target = targetPlanId === planId ? plan : await getPricingPlan({ db, id: targetPlanId });
      nextChargeAmount = priceFor(target, targetInterval);
      nextChargeDate = iso(user.subscriptionCurrentPeriodEnd);
    } else if (user.subscriptionStatus === 'past_due' && sub?.nextRetryAt) {
      const target =
        targetPlanId === planId || targetPlanId === 'free'
          ? plan
          : await getPricingPlan({ db, id: targetPlanId });
      nextChargeAmount = priceFor(target, targetInterval);
      nextChargeDate = iso(sub.nextRetryAt);
    }
  }
  return {
    planId,
    planName: plan.name,
    status: planId === 'free' ? null : user.subscriptionStatus,
    interval,
    currentPeriodStart: planId === 'free' ? null : iso(periodStartOf(user, sub)),
    currentPeriodEnd: planId === 'free' ? null : iso(user.subscriptionCurrentPeriodEnd),
    cancelAtPeriodEnd,
    pendingPlanId,
    pendingInterval: pendingPlanId ? (pendingInterval ?? interval) : null,
    nextChargeAmount,
    nextChargeDate,
    card:
      sub?.cardLast4 || sub?.cardBrand
        ? {
            brand: sub.cardBrand,
            last4: sub.cardLast4,
            expMonth: sub.cardExpMonth,
            expYear: sub.cardExpYear,
          }
        : null,
    renewalAttempts: sub?.renewalAttempts ?? 0,
    nextRetryAt: iso(sub?.nextRetryAt),
  };
}

export function toPayment(row: OrderRow): Payment {
  const planId = isPlanId(row.planId) ? row.planId : 'free';
  return {
    id: row.id,
    reference: row.reference,
    kind: (['new', 'upgrade', 'renewal'].includes(row.kind) ? row.kind : 'new') as Payment['kind'],
    planId,
    planName: PLAN_NAMES[planId],
    interval: isBillingInterval(row.interval) ? row.interval : 'monthly',
    amount: row.amount,
    credit: row.creditAmount,
    currency: 'NGN',
    status: row.status as Payment['status'],
    channel: row.channel,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    periodStart: iso(row.periodStart),
    periodEnd: iso(row.periodEnd),
    failureReason: row.failureReason,
    paidAt: iso(row.paidAt),
    refundedAt: iso(row.refundedAt),
    createdAt: row.createdAt.toISOString(),
  };
}
