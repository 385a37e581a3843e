import type { Database } from '@server/db/client';
import { orders, subscriptions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import type { BillingInterval, PlanId } from '@shared/plans';
import { and, asc, eq, inArray, isNotNull, lte, ne, or } from 'drizzle-orm';
import { getPricingPlan, priceFor } from '../plans/plans.service';
import {
  type BillingServices,
  DAY_MS,
  ensureSubscriptionRow,
  getUserRow,
  intervalOf,
  planOf,
  type SubscriptionRow,
  type UserRow,
} from './billing.service';
import { sendRenewalFailed, sendSubscriptionEnded } from './billing-mail.service';
import { applySuccessfulCharge } from './payments.service';
import { type PaystackTransaction, PaystackUnavailableError } from './paystack.client';

/** The first charge at the period end, then retries one, two and three days later; then the plan expires. */
export const RENEWAL_RETRY_DAYS = [1, 1, 1] as const;
export const MAX_RENEWAL_CHARGES = RENEWAL_RETRY_DAYS.length + 1;

export type RenewalOutcome =
  | 'renewed'
  | 'failed'
  | 'expired'
  | 'cancelled'
  | 'downgraded_to_free'
  | 'already_handled'
  | 'skipped';

export interface RenewalSummary {
  checked: number;
  outcomes: Record<RenewalOutcome, number>;
}

/**
 * The renewal sweep (the renew-subscriptions job, every 15 minutes; tests call it after moving the clock):
 * every paid subscription whose period has ended, or whose retry is due, is renewed, retried, downgraded,
 * ended or expired. Safe to run twice or on two workers at once: each charge has a deterministic reference
 * (user, period end, attempt), so a second runner finds the order already there and leaves it.
 */
export async function runSubscriptionRenewals(
  services: BillingServices,
  options: {
    limit?: number /** only these users (tests share one database with other suites) */;
    userIds?: string[];
  } = {},
): Promise<RenewalSummary> {
  const { db } = services;
  const at = now();
  const due = await db
    .select({ id: users.id })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(
      and(
        ne(users.subscriptionPlan, 'free'),
        isNotNull(users.subscriptionCurrentPeriodEnd),
        options.userIds ? inArray(users.id, options.userIds) : undefined,
        or(
          and(eq(users.subscriptionStatus, 'active'), lte(users.subscriptionCurrentPeriodEnd, at)),
          and(eq(users.subscriptionStatus, 'past_due'), lte(subscriptions.nextRetryAt, at)),
        ),
      ),
    )
    .orderBy(asc(users.subscriptionCurrentPeriodEnd))
    .limit(options.limit ?? 200);
  const outcomes: Record<RenewalOutcome, number> = {
    renewed: 0,
    failed: 0,
    expired: 0,
    cancelled: 0,
    downgraded_to_free: 0,
    already_handled: 0,
    skipped: 0,
  };
  for (const { id } of due) {
    try {
      const outcome = await renewSubscription(services, { userId: id });
      outcomes[outcome]++;
    } catch (error) {
      outcomes.skipped++;
      services.log?.error({ err: error, userId: id }, 'subscription renewal failed unexpectedly');
    }
  }
  return { checked: due.length, outcomes };
}

/** One user's renewal step. */
export async function renewSubscription(
  services: BillingServices,
  options: { userId: string },
): Promise<RenewalOutcome> {
  const { db } = services;
  const at = now();
  const user = await getUserRow(db, options.userId);
  const sub = await ensureSubscriptionRow(db, options.userId);
  const periodEnd = user.subscriptionCurrentPeriodEnd;
  const plan = planOf(user);
  if (plan === 'free' || !periodEnd) return 'skipped';
  const onTime = user.subscriptionStatus === 'active' && periodEnd.getTime() <= at.getTime();
  const retryDue =
    user.subscriptionStatus === 'past_due' && !!sub.nextRetryAt && sub.nextRetryAt.getTime() <= at.getTime();
  if (!onTime && !retryDue) return 'skipped';

  if (onTime && sub.cancelAtPeriodEnd) {
    await endSubscription(db, user.id, 'cancelled', { cancelAtPeriodEnd: false });
    void sendSubscriptionEnded(services, user, { planId: plan, status: 'cancelled' });
    return 'cancelled';
  }
  if (onTime && sub.pendingPlan === 'free') {
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          subscriptionPlan: 'free',
          subscriptionStatus: null,
          subscriptionInterval: null,
          subscriptionCurrentPeriodEnd: null,
          updatedAt: at,
        })
        .where(eq(users.id, user.id));
      await tx
        .update(subscriptions)
        .set({
          pendingPlan: null,
          pendingInterval: null,
          endedAt: at,
          currentPeriodStart: null,
          updatedAt: at,
        })
        .where(eq(subscriptions.userId, user.id));
    });
    return 'downgraded_to_free';
  }

  const targetPlanId = ((sub.pendingPlan as PlanId | null) ?? plan) as PlanId;
  const interval = ((sub.pendingInterval as BillingInterval | null) ?? intervalOf(user)) as BillingInterval;
  const target = await getPricingPlan({ db, id: targetPlanId });
  const amount = priceFor(target, interval);
  const attempt = sub.renewalAttempts;
  const reference = `tmb_ren_${user.id}_${periodEnd.getTime().toString(36)}_${attempt}`;
  const [order] = await db
    .insert(orders)
    .values({
      userId: user.id,
      reference,
      kind: 'renewal',
      planId: target.id,
      interval,
      amount,
      currency: 'NGN',
      status: 'pending',
      // On time the new period follows the old one; after failed attempts it starts when payment succeeds.
      periodStart: attempt === 0 ? periodEnd : at,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({ target: orders.reference })
    .returning();
  if (!order) return 'already_handled';

  if (!services.paystack || !sub.authorizationCode || !sub.authorizationReusable) {
    await recordFailedCharge(services, {
      user,
      sub,
      orderId: order.id,
      amount,
      planId: target.id,
      reason: 'No saved card to charge',
    });
    return (await getUserRow(db, user.id)).subscriptionStatus === 'expired' ? 'expired' : 'failed';
  }

  let transaction: PaystackTransaction | null = null;
  let reason = 'The charge was declined';
  try {
    transaction = await services.paystack.chargeAuthorization({
      email: sub.authorizationEmail ?? user.email,
      amount,
      currency: 'NGN',
      authorizationCode: sub.authorizationCode,
      reference,
      metadata: { orderId: order.id, userId: user.id, planId: target.id, interval, kind: 'renewal' },
    });
  } catch (error) {
    reason =
      error instanceof PaystackUnavailableError
        ? 'The payment provider could not be reached'
        : (error as Error).message;
    services.log?.warn({ err: error, userId: user.id, reference }, 'renewal charge failed');
  }
  if (transaction?.status === 'success') {
    const { outcome } = await applySuccessfulCharge(services, { reference, transaction });
    if (outcome === 'applied' || outcome === 'already_applied') return 'renewed';
    reason = `Payment could not be applied (${outcome})`;
  } else if (transaction) {
    reason = transaction.gateway_response || reason;
  }
  await recordFailedCharge(services, { user, sub, orderId: order.id, amount, planId: target.id, reason });
  return (await getUserRow(db, user.id)).subscriptionStatus === 'expired' ? 'expired' : 'failed';
}

/** A failed renewal charge: past due with the next retry a day later, or expired after the last retry. */
async function recordFailedCharge(
  services: BillingServices,
  input: {
    user: UserRow;
    sub: SubscriptionRow;
    orderId: string;
    amount: number;
    planId: string;
    reason: string;
  },
) {
  const { db } = services;
  const at = now();
  const attempts = input.sub.renewalAttempts + 1;
  await db
    .update(orders)
    .set({ status: 'failed', failureReason: input.reason, gatewayResponse: input.reason, updatedAt: at })
    .where(and(eq(orders.id, input.orderId), inArray(orders.status, ['pending'])));
  if (attempts >= MAX_RENEWAL_CHARGES) {
    await endSubscription(db, input.user.id, 'expired', { renewalAttempts: attempts });
    void sendSubscriptionEnded(services, input.user, { planId: input.planId, status: 'expired' });
    return;
  }
  const nextRetryAt = new Date(at.getTime() + RENEWAL_RETRY_DAYS[attempts - 1]! * DAY_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ subscriptionStatus: 'past_due', updatedAt: at })
      .where(eq(users.id, input.user.id));
    await tx
      .update(subscriptions)
      .set({ renewalAttempts: attempts, nextRetryAt, updatedAt: at })
      .where(eq(subscriptions.userId, input.user.id));
  });
  void sendRenewalFailed(services, input.user, {
    planId: input.planId,
    amount: input.amount,
    nextRetryAt,
    reason: input.reason,
  });
}

async function endSubscription(
  db: Database,
  userId: string,
  status: 'expired' | 'cancelled',
  extra: Partial<typeof subscriptions.$inferInsert>,
) {
  const at = now();
  await db.transaction(async (tx) => {
    await tx.update(users).set({ subscriptionStatus: status, updatedAt: at }).where(eq(users.id, userId));
    await tx
      .update(subscriptions)
      .set({
        nextRetryAt: null,
        endedAt: at,
        pendingPlan: null,
        pendingInterval: null,
        ...extra,
        updatedAt: at,
      })
      .where(eq(subscriptions.userId, userId));
  });
}
