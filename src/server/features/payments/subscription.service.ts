import type { Database } from '@server/db/client';
import { orders, subscriptions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { toUserDto } from '@server/lib/user-dto';
import type { User } from '@shared/auth';
import { type ChangePlanResponse, PAYMENT_MESSAGES, type Payment, type Subscription } from '@shared/payments';
import type { BillingInterval, PlanId } from '@shared/plans';
import { desc, eq } from 'drizzle-orm';
import { getPricingPlan, MIN_PAID_PRICE, priceFor } from '../plans/plans.service';
import {
  addInterval,
  type BillingServices,
  ensureSubscriptionRow,
  getUserRow,
  hasRunningPeriod,
  intervalOf,
  planOf,
  toPayment,
  toSubscriptionView,
} from './billing.service';
import { createOrderAndInitialize, isUpgrade, upgradeQuote } from './payments.service';

export function getSubscription({ db, userId }: { db: Database; userId: string }): Promise<Subscription> {
  return toSubscriptionView(db, userId);
}

export async function listPayments({ db, userId }: { db: Database; userId: string }): Promise<Payment[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(200);
  return rows.map(toPayment);
}

const formatDay = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(d);

/**
 * Records the plan chosen at sign-up or on the pricing page before paying. A paid plan waits for payment
 * (status `incomplete`); `free` drops any unpaid plan. A running paid period is changed with change-plan.
 */
export async function selectPlan(
  services: Pick<BillingServices, 'db'>,
  options: { userId: string; planId: PlanId; interval: BillingInterval },
): Promise<User> {
  const { db } = services;
  const user = await getUserRow(db, options.userId);
  if (hasRunningPeriod(user)) {
    if (planOf(user) === options.planId) return toUserDto(user);
    throw new AppError(
      'conflict',
      `Your ${(await getPricingPlan({ db, id: planOf(user) })).name} plan is active: use Change plan to move to another plan.`,
      { reason: 'use_change_plan' },
    );
  }
  const plan = await getPricingPlan({ db, id: options.planId });
  if (!plan.active) throw new AppError('bad_request', PAYMENT_MESSAGES.planUnavailable);
  const changes: Partial<typeof users.$inferInsert> =
    options.planId === 'free'
      ? {
          subscriptionPlan: 'free',
          subscriptionStatus: null,
          subscriptionInterval: null,
          subscriptionCurrentPeriodEnd: null,
        }
      : {
          subscriptionPlan: options.planId,
          subscriptionStatus: 'incomplete',
          subscriptionInterval: options.interval,
        };
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: now() })
    .where(eq(users.id, options.userId))
    .returning();
  await ensureSubscriptionRow(db, options.userId);
  await db
    .update(subscriptions)
    .set({ pendingPlan: null, pendingInterval: null, cancelAtPeriodEnd: false, updatedAt: now() })
    .where(eq(subscriptions.userId, options.userId));
  return toUserDto(row!);
}

/** Cancel at period end: access stays until then, nothing more is charged. A past-due plan ends now. */
export async function cancelSubscription(
  services: Pick<BillingServices, 'db'>,
  options: { userId: string },
): Promise<{ message: string; subscription: Subscription }> {
  const { db } = services;
  const user = await getUserRow(db, options.userId);
  await ensureSubscriptionRow(db, options.userId);
  if (hasRunningPeriod(user)) {
    await db
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: true, pendingPlan: null, pendingInterval: null, updatedAt: now() })
      .where(eq(subscriptions.userId, options.userId));
    const until = formatDay(user.subscriptionCurrentPeriodEnd!);
    return {
      message: `Your subscription will end on ${until}. You keep full access until then.`,
      subscription: await toSubscriptionView(db, options.userId),
    };
  }
  if (planOf(user) !== 'free' && user.subscriptionStatus === 'past_due') {
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ subscriptionStatus: 'cancelled', updatedAt: now() })
        .where(eq(users.id, options.userId));
      await tx
        .update(subscriptions)
        .set({ nextRetryAt: null, renewalAttempts: 0, endedAt: now(), updatedAt: now() })
        .where(eq(subscriptions.userId, options.userId));
    });
    return {
      message: 'Your subscription has been cancelled. No further payment will be attempted.',
      subscription: await toSubscriptionView(db, options.userId),
    };
  }
  throw new AppError('bad_request', PAYMENT_MESSAGES.nothingToCancel);
}

export async function reactivateSubscription(
  services: Pick<BillingServices, 'db'>,
  options: { userId: string },
): Promise<{ message: string; subscription: Subscription }> {
  const { db } = services;
  const user = await getUserRow(db, options.userId);
  const sub = await ensureSubscriptionRow(db, options.userId);
  if (hasRunningPeriod(user) && sub.cancelAtPeriodEnd) {
    await db
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: false, updatedAt: now() })
      .where(eq(subscriptions.userId, options.userId));
    return {
      message: `${PAYMENT_MESSAGES.reactivated} Next renewal: ${formatDay(user.subscriptionCurrentPeriodEnd!)}.`,
      subscription: await toSubscriptionView(db, options.userId),
    };
  }
  if (planOf(user) !== 'free' && !hasRunningPeriod(user)) {
    throw new AppError('bad_request', PAYMENT_MESSAGES.periodEnded, { reason: 'payment_required' });
  }
  throw new AppError('bad_request', PAYMENT_MESSAGES.nothingToReactivate);
}

/**
 * Change plan. Without a running paid period: a new payment (or, for free, the switch). With one: an upgrade
 * happens now, the unused part of the current period credited against the new price (paid through the
 * popup, or switched at once if the credit covers it); a downgrade, annual → monthly, or a move to Free is
 * scheduled for the period end.
 */
export async function changePlan(
  services: BillingServices,
  options: { userId: string; planId: PlanId; interval: BillingInterval },
): Promise<ChangePlanResponse> {
  const { db } = services;
  const user = await getUserRow(db, options.userId);
  const target = await getPricingPlan({ db, id: options.planId });
  if (!target.active) throw new AppError('bad_request', PAYMENT_MESSAGES.planUnavailable);
  const at = now();

  if (!hasRunningPeriod(user, at)) {
    if (options.planId === 'free') {
      await selectPlan(services, options);
      return {
        effect: 'immediate',
        message: 'You are now on the Free plan.',
        credit: 0,
        amountDue: 0,
        effectiveAt: at.toISOString(),
        payment: null,
        subscription: await toSubscriptionView(db, options.userId),
      };
    }
    const payment = await createOrderAndInitialize(services, {
      user,
      plan: target,
      interval: options.interval,
      kind: 'new',
      amount: priceFor(target, options.interval),
      credit: 0,
    });
    return {
      effect: 'payment_required',
      message: `Complete the payment to start your ${target.name} plan.`,
      credit: 0,
      amountDue: payment.amount,
      effectiveAt: at.toISOString(),
      payment,
      subscription: await toSubscriptionView(db, options.userId),
    };
  }

  const current = await getPricingPlan({ db, id: planOf(user) });
  const currentInterval = intervalOf(user);
  const periodEnd = user.subscriptionCurrentPeriodEnd!;
  await ensureSubscriptionRow(db, options.userId);

  if (current.id === target.id && currentInterval === options.interval) {
    const sub = await toSubscriptionView(db, options.userId);
    if (!sub.pendingPlanId) throw new AppError('bad_request', PAYMENT_MESSAGES.samePlan);
    await db
      .update(subscriptions)
      .set({ pendingPlan: null, pendingInterval: null, updatedAt: at })
      .where(eq(subscriptions.userId, options.userId));
    return {
      effect: 'immediate',
      message: `You stay on the ${current.name} plan; the scheduled change was withdrawn.`,
      credit: 0,
      amountDue: 0,
      effectiveAt: at.toISOString(),
      payment: null,
      subscription: await toSubscriptionView(db, options.userId),
    };
  }

  const upgrade =
    options.planId !== 'free' &&
    isUpgrade({ plan: current, interval: currentInterval }, { plan: target, interval: options.interval });
  if (!upgrade) {
    await db
      .update(subscriptions)
      .set({
        pendingPlan: options.planId,
        pendingInterval: options.planId === 'free' ? null : options.interval,
        cancelAtPeriodEnd: false,
        updatedAt: at,
      })
      .where(eq(subscriptions.userId, options.userId));
    return {
      effect: 'scheduled',
      message: `Your plan changes to ${target.name}${options.planId === 'free' ? '' : ` (${options.interval})`} on ${formatDay(periodEnd)}. You keep ${current.name} until then.`,
      credit: 0,
      amountDue: 0,
      effectiveAt: periodEnd.toISOString(),
      payment: null,
      subscription: await toSubscriptionView(db, options.userId),
    };
  }

  const quote = await upgradeQuote(db, user, target, options.interval);
  if (quote.amountDue < MIN_PAID_PRICE) {
    // The credit pays for the new plan: it buys the matching share of a period of it, starting now.
    const fullPeriodMs = addInterval(at, options.interval).getTime() - at.getTime();
    const newEnd = new Date(
      at.getTime() + Math.floor(fullPeriodMs * Math.min(quote.credit / quote.price, 12)),
    );
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          subscriptionPlan: target.id,
          subscriptionInterval: options.interval,
          subscriptionStatus: 'active',
          subscriptionCurrentPeriodEnd: newEnd,
          updatedAt: at,
        })
        .where(eq(users.id, options.userId));
      await tx
        .update(subscriptions)
        .set({
          currentPeriodStart: at,
          pendingPlan: null,
          pendingInterval: null,
          cancelAtPeriodEnd: false,
          updatedAt: at,
        })
        .where(eq(subscriptions.userId, options.userId));
    });
    return {
      effect: 'immediate',
      message: `You are now on the ${target.name} plan until ${formatDay(newEnd)}, paid by the credit from your ${current.name} plan.`,
      credit: quote.credit,
      amountDue: 0,
      effectiveAt: at.toISOString(),
      payment: null,
      subscription: await toSubscriptionView(db, options.userId),
    };
  }
  const payment = await createOrderAndInitialize(services, {
    user,
    plan: target,
    interval: options.interval,
    kind: 'upgrade',
    amount: quote.amountDue,
    credit: quote.credit,
  });
  return {
    effect: 'payment_required',
    message: `Pay the difference to move to ${target.name} now. The unused part of your ${current.name} plan is credited.`,
    credit: quote.credit,
    amountDue: quote.amountDue,
    effectiveAt: at.toISOString(),
    payment,
    subscription: await toSubscriptionView(db, options.userId),
  };
}
