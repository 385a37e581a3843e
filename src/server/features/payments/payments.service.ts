import { randomBytes } from 'node:crypto';
import type { Database } from '@server/db/client';
import { orders, subscriptions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { toUserDto } from '@server/lib/user-dto';
import {
  type ActivateSubscriptionInput,
  type ActivateSubscriptionResponse,
  type InitializePaymentResponse,
  type OrderKind,
  PAYMENT_MESSAGES,
  type PaidPlanId,
  type PricingPlan,
} from '@shared/payments';
import { type BillingInterval, PLAN_NAMES, type PlanId } from '@shared/plans';
import { and, eq, inArray, lt } from 'drizzle-orm';
import { getPricingPlan, MIN_PAID_PRICE, priceFor } from '../plans/plans.service';
import {
  addInterval,
  type BillingServices,
  getSubscriptionRow,
  getUserRow,
  hasRunningPeriod,
  intervalOf,
  type OrderRow,
  planOf,
  requirePaystack,
  toSubscriptionView,
  type UserRow,
  unusedCredit,
} from './billing.service';
import { sendReceipt } from './billing-mail.service';
import { type PaystackTransaction, PaystackUnavailableError } from './paystack.client';

/** A payment reference: timestamp-based, so references sort by time, and unguessable. */
export function newReference(prefix = 'tmb'): string {
  return `${prefix}_${now().getTime().toString(36)}_${randomBytes(8).toString('hex')}`;
}

const formatDay = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(d);

/** Upgrade = a plan further up the list, or the same plan moving from monthly to annual billing. */
export function isUpgrade(
  current: { plan: Pick<PricingPlan, 'sortOrder' | 'id'>; interval: BillingInterval },
  target: { plan: Pick<PricingPlan, 'sortOrder' | 'id'>; interval: BillingInterval },
): boolean {
  if (target.plan.id === current.plan.id)
    return current.interval === 'monthly' && target.interval === 'annual';
  return target.plan.sortOrder > current.plan.sortOrder;
}

async function paidPlan(db: Database, planId: PlanId): Promise<PricingPlan> {
  if (planId === 'free') throw new AppError('bad_request', PAYMENT_MESSAGES.freeNeedsNoPayment);
  const plan = await getPricingPlan({ db, id: planId });
  if (!plan.active) throw new AppError('bad_request', PAYMENT_MESSAGES.planUnavailable);
  return plan;
}

/** Records the order, then asks Paystack for a transaction the popup can resume. */
export async function createOrderAndInitialize(
  services: BillingServices,
  input: {
    user: UserRow;
    plan: PricingPlan;
    interval: BillingInterval;
    kind: OrderKind;
    amount: number;
    credit: number;
  },
): Promise<InitializePaymentResponse> {
  const paystack = requirePaystack(services);
  const reference = newReference();
  const [order] = await services.db
    .insert(orders)
    .values({
      userId: input.user.id,
      reference,
      kind: input.kind,
      planId: input.plan.id,
      interval: input.interval,
      amount: input.amount,
      creditAmount: input.credit,
      currency: 'NGN',
      status: 'pending',
      createdAt: now(),
      updatedAt: now(),
    })
    .returning();
  let initialized: Awaited<ReturnType<typeof paystack.initializeTransaction>>;
  try {
    initialized = await paystack.initializeTransaction({
      email: input.user.email,
      amount: input.amount,
      currency: 'NGN',
      reference,
      callbackUrl: `${services.env.APP_URL}/payment-success`,
      metadata: {
        orderId: order!.id,
        userId: input.user.id,
        planId: input.plan.id,
        interval: input.interval,
        kind: input.kind,
      },
    });
  } catch (error) {
    services.log?.warn({ err: error, reference }, 'Paystack transaction could not be initialized');
    await services.db
      .update(orders)
      .set({ status: 'failed', failureReason: 'Could not start the payment with Paystack', updatedAt: now() })
      .where(eq(orders.id, order!.id));
    throw new AppError('unavailable', PAYMENT_MESSAGES.providerUnavailable);
  }
  await services.db
    .update(orders)
    .set({
      accessCode: initialized.access_code,
      authorizationUrl: initialized.authorization_url,
      updatedAt: now(),
    })
    .where(eq(orders.id, order!.id));
  return {
    orderId: order!.id,
    reference,
    accessCode: initialized.access_code,
    authorizationUrl: initialized.authorization_url ?? null,
    publicKey: services.env.PAYSTACK_PUBLIC_KEY ?? '',
    inlineScriptUrl: services.env.PAYSTACK_INLINE_SCRIPT_URL,
    amount: input.amount,
    credit: input.credit,
    currency: 'NGN',
    email: input.user.email,
    planId: input.plan.id as PaidPlanId,
    interval: input.interval,
    kind: input.kind,
  };
}

/**
 * The price of moving a user with a running period to `target`: the unused part of the current period is
 * credited. Throws when the move is a downgrade (those wait for the period end, see change-plan).
 */
export async function upgradeQuote(
  db: Database,
  user: UserRow,
  target: PricingPlan,
  interval: BillingInterval,
): Promise<{ credit: number; amountDue: number; price: number }> {
  const current = await getPricingPlan({ db, id: planOf(user) });
  if (!isUpgrade({ plan: current, interval: intervalOf(user) }, { plan: target, interval })) {
    const until = user.subscriptionCurrentPeriodEnd
      ? formatDay(user.subscriptionCurrentPeriodEnd)
      : 'the period end';
    throw new AppError(
      'conflict',
      `Your ${current.name} plan is paid until ${until}. A move to ${target.name} (${interval}) takes effect then: use Change plan to schedule it.`,
      { reason: 'use_change_plan' },
    );
  }
  const sub = await getSubscriptionRow(db, user.id);
  const credit = await unusedCredit(db, user, sub);
  const price = priceFor(target, interval);
  return { credit, amountDue: Math.max(0, price - credit), price };
}

export async function initializePayment(
  services: BillingServices,
  options: { userId: string; planId: PlanId; interval: BillingInterval },
): Promise<InitializePaymentResponse> {
  const plan = await paidPlan(services.db, options.planId);
  const user = await getUserRow(services.db, options.userId);
  const price = priceFor(plan, options.interval);
  if (hasRunningPeriod(user) && !(planOf(user) === plan.id && intervalOf(user) === options.interval)) {
    const quote = await upgradeQuote(services.db, user, plan, options.interval);
    if (quote.amountDue < MIN_PAID_PRICE) {
      throw new AppError(
        'conflict',
        'Your unused credit covers this change: use Change plan to switch now without paying.',
        { reason: 'use_change_plan' },
      );
    }
    return createOrderAndInitialize(services, {
      user,
      plan,
      interval: options.interval,
      kind: 'upgrade',
      amount: quote.amountDue,
      credit: quote.credit,
    });
  }
  return createOrderAndInitialize(services, {
    user,
    plan,
    interval: options.interval,
    kind: 'new',
    amount: price,
    credit: 0,
  });
}

export type ChargeOutcome =
  | 'applied'
  | 'already_applied'
  | 'refunded'
  | 'not_success'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'unknown_reference';

/**
 * The one place a successful Paystack charge becomes paid time. The order row is locked and moved to
 * `success` only if it is not already there, so verify, webhook and renewal can race: exactly one applies
 * it (and sends the receipt); the others see `already_applied`.
 */
export async function applySuccessfulCharge(
  services: BillingServices,
  input: { reference: string; transaction: PaystackTransaction },
): Promise<{ outcome: ChargeOutcome; order: OrderRow | null }> {
  const tx = input.transaction;
  const result = await services.db.transaction(async (trx) => {
    const db = trx as unknown as Database;
    const [order] = await db
      .select()
      .from(orders)
      .where(eq(orders.reference, input.reference))
      .for('update')
      .limit(1);
    if (!order) return { outcome: 'unknown_reference' as const, order: null, user: null };
    if (order.status === 'success') return { outcome: 'already_applied' as const, order, user: null };
    if (order.status === 'refunded') return { outcome: 'refunded' as const, order, user: null };
    if (tx.status !== 'success') return { outcome: 'not_success' as const, order, user: null };
    if (tx.amount !== order.amount || (tx.currency ?? '').toUpperCase() !== order.currency) {
      const outcome: ChargeOutcome = tx.amount !== order.amount ? 'amount_mismatch' : 'currency_mismatch';
      const [failed] = await db
        .update(orders)
        .set({
          status: 'failed',
          failureReason:
            outcome === 'amount_mismatch'
              ? `Paid ${tx.amount} ${tx.currency}, expected ${order.amount} ${order.currency}`
              : `Paid in ${tx.currency}, expected ${order.currency}`,
          updatedAt: now(),
        })
        .where(eq(orders.id, order.id))
        .returning();
      return { outcome, order: failed ?? order, user: null };
    }

    const [user] = await db.select().from(users).where(eq(users.id, order.userId)).for('update').limit(1);
    if (!user) return { outcome: 'unknown_reference' as const, order, user: null };
    const interval = order.interval as BillingInterval;
    const at = now();
    let periodStart: Date;
    if (order.kind === 'renewal') periodStart = order.periodStart ?? user.subscriptionCurrentPeriodEnd ?? at;
    else if (
      order.kind === 'new' &&
      hasRunningPeriod(user, at) &&
      planOf(user) === order.planId &&
      intervalOf(user) === interval
    ) {
      // Paying again for the plan that is running: the new period follows the current one.
      periodStart = user.subscriptionCurrentPeriodEnd!;
    } else periodStart = at;
    const periodEnd = addInterval(periodStart, interval);
    const auth = tx.authorization;
    const [paid] = await db
      .update(orders)
      .set({
        status: 'success',
        paidAt: at,
        channel: tx.channel ?? auth?.channel ?? null,
        cardBrand: auth?.brand?.trim() || auth?.card_type?.trim() || null,
        cardLast4: auth?.last4 ?? null,
        authorizationCode: auth?.authorization_code ?? null,
        gatewayResponse: tx.gateway_response ?? null,
        failureReason: null,
        periodStart,
        periodEnd,
        updatedAt: at,
      })
      .where(eq(orders.id, order.id))
      .returning();
    await db
      .update(users)
      .set({
        subscriptionPlan: order.planId,
        subscriptionStatus: 'active',
        subscriptionInterval: interval,
        subscriptionCurrentPeriodEnd: periodEnd,
        updatedAt: at,
      })
      .where(eq(users.id, user.id));
    const card =
      auth?.reusable && auth.authorization_code
        ? {
            authorizationCode: auth.authorization_code,
            authorizationEmail: tx.customer?.email ?? user.email,
            authorizationReusable: true,
            cardBrand: auth.brand?.trim() || auth.card_type?.trim() || null,
            cardLast4: auth.last4 ?? null,
            cardExpMonth: auth.exp_month ?? null,
            cardExpYear: auth.exp_year ?? null,
          }
        : {};
    const billing = {
      currentPeriodStart: periodStart,
      cancelAtPeriodEnd: false,
      pendingPlan: null,
      pendingInterval: null,
      renewalAttempts: 0,
      nextRetryAt: null,
      endedAt: null,
      ...(tx.customer?.customer_code ? { paystackCustomerCode: tx.customer.customer_code } : {}),
      ...card,
      updatedAt: at,
    };
    await db
      .insert(subscriptions)
      .values({ userId: user.id, ...billing })
      .onConflictDoUpdate({ target: subscriptions.userId, set: billing });
    return { outcome: 'applied' as const, order: paid ?? order, user };
  });
  if (result.outcome === 'applied' && result.user && result.order) {
    void sendReceipt(services, { email: result.user.email, firstName: result.user.firstName }, result.order);
    services.log?.info(
      { userId: result.user.id, reference: input.reference, planId: result.order.planId },
      'payment applied',
    );
  }
  return { outcome: result.outcome, order: result.order };
}

/** An unsuccessful verification is recorded on a still-open order (pending or abandoned). */
async function recordUnpaid(
  db: Database,
  order: OrderRow,
  status: 'failed' | 'abandoned',
  reason: string | null,
) {
  await db
    .update(orders)
    .set({ status, gatewayResponse: reason, failureReason: reason, updatedAt: now() })
    .where(and(eq(orders.id, order.id), inArray(orders.status, ['pending', 'abandoned'])));
}

/** POST /api/activate-subscription: verify the reference with Paystack, then apply it once. */
export async function activateSubscription(
  services: BillingServices,
  options: { userId: string; input: ActivateSubscriptionInput },
): Promise<ActivateSubscriptionResponse> {
  const { db } = services;
  const { paymentReference, planId, interval } = options.input;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.reference, paymentReference), eq(orders.userId, options.userId)))
    .limit(1);
  if (!order) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  if (order.planId !== planId || order.interval !== interval) {
    throw new AppError(
      'bad_request',
      `This payment was for the ${PLAN_NAMES[order.planId as PlanId] ?? order.planId} plan (${order.interval}), not ${PLAN_NAMES[planId]} (${interval}).`,
      { reason: 'plan_mismatch' },
    );
  }
  if (order.status === 'refunded') {
    throw new AppError('bad_request', PAYMENT_MESSAGES.refunded, { reason: 'refunded' });
  }
  if (order.status !== 'success') {
    const paystack = requirePaystack(services);
    let transaction: PaystackTransaction;
    try {
      transaction = await paystack.verifyTransaction(paymentReference);
    } catch (error) {
      if (error instanceof PaystackUnavailableError) {
        services.log?.warn({ err: error, reference: paymentReference }, 'Paystack verify failed');
        throw new AppError('unavailable', PAYMENT_MESSAGES.providerUnavailable);
      }
      // Paystack does not know the reference: the popup never created a charge.
      await recordUnpaid(db, order, 'abandoned', (error as Error).message);
      throw new AppError('bad_request', PAYMENT_MESSAGES.abandoned, { reason: 'abandoned' });
    }
    switch (transaction.status) {
      case 'success': {
        const { outcome } = await applySuccessfulCharge(services, {
          reference: paymentReference,
          transaction,
        });
        if (outcome === 'amount_mismatch') {
          throw new AppError('bad_request', PAYMENT_MESSAGES.amountMismatch, { reason: 'amount_mismatch' });
        }
        if (outcome === 'currency_mismatch') {
          throw new AppError('bad_request', PAYMENT_MESSAGES.currencyMismatch, {
            reason: 'currency_mismatch',
          });
        }
        if (outcome === 'refunded') {
          throw new AppError('bad_request', PAYMENT_MESSAGES.refunded, { reason: 'refunded' });
        }
        return activationAnswer(db, options.userId, outcome !== 'applied');
      }
      case 'abandoned':
        await recordUnpaid(db, order, 'abandoned', transaction.gateway_response ?? 'Abandoned');
        throw new AppError('bad_request', PAYMENT_MESSAGES.abandoned, { reason: 'abandoned' });
      case 'failed':
      case 'reversed':
        await recordUnpaid(db, order, 'failed', transaction.gateway_response ?? transaction.status);
        throw new AppError(
          'bad_request',
          transaction.gateway_response && transaction.gateway_response !== 'Declined'
            ? `The payment did not go through (${transaction.gateway_response}). Please try again or use another card.`
            : PAYMENT_MESSAGES.failed,
          { reason: 'failed' },
        );
      default:
        throw new AppError('conflict', PAYMENT_MESSAGES.pending, { reason: 'pending' });
    }
  }
  return activationAnswer(db, options.userId, true);
}

async function activationAnswer(
  db: Database,
  userId: string,
  alreadyActivated: boolean,
): Promise<ActivateSubscriptionResponse> {
  const user = await getUserRow(db, userId);
  return {
    // The webhook often wins the race with the browser's call: to the user it is the same good news.
    message: PAYMENT_MESSAGES.activated,
    alreadyActivated,
    user: toUserDto(user),
    subscription: await toSubscriptionView(db, userId),
  };
}

/**
 * How long a checkout may stay open. Paystack keeps a transaction nobody paid as "abandoned" rather than
 * closing it, so after a day (no card, bank or USSD checkout is still being completed by then) we ask
 * Paystack for its final word and stop showing the order as pending.
 */
export const CHECKOUT_EXPIRY_MS = 24 * 60 * 60 * 1000;
export const CHECKOUT_EXPIRED_REASON = 'Checkout expired: the payment was not completed within 24 hours.';

export interface CheckoutExpirySummary {
  checked: number;
  expired: number;
  paid: number;
  failed: number;
}

/**
 * Closes checkouts (new plans and upgrades; renewals have their own retries) left pending past
 * CHECKOUT_EXPIRY_MS. Each is verified with Paystack first, so one paid late is applied, not expired; a
 * Paystack that cannot be reached leaves the order for the next run. Safe to run twice.
 */
export async function expireAbandonedCheckouts(
  services: BillingServices,
  options: { limit?: number } = {},
): Promise<CheckoutExpirySummary> {
  const { db, paystack } = services;
  const cutoff = new Date(now().getTime() - CHECKOUT_EXPIRY_MS);
  const stale = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        inArray(orders.kind, ['new', 'upgrade']),
        lt(orders.createdAt, cutoff),
      ),
    )
    .orderBy(orders.createdAt)
    .limit(options.limit ?? 500);
  const summary: CheckoutExpirySummary = { checked: stale.length, expired: 0, paid: 0, failed: 0 };
  for (const order of stale) {
    let transaction: PaystackTransaction | null = null;
    if (paystack) {
      try {
        transaction = await paystack.verifyTransaction(order.reference);
      } catch (error) {
        if (error instanceof PaystackUnavailableError) {
          services.log?.warn({ err: error, reference: order.reference }, 'Paystack verify failed');
          continue;
        }
        // Paystack does not know the reference: the checkout never reached it.
      }
    }
    if (transaction?.status === 'success') {
      const { outcome } = await applySuccessfulCharge(services, { reference: order.reference, transaction });
      if (outcome === 'applied' || outcome === 'already_applied') summary.paid++;
      continue;
    }
    if (transaction && (transaction.status === 'failed' || transaction.status === 'reversed')) {
      await recordUnpaid(db, order, 'failed', transaction.gateway_response ?? transaction.status);
      summary.failed++;
      continue;
    }
    await db
      .update(orders)
      .set({ status: 'abandoned', failureReason: CHECKOUT_EXPIRED_REASON, updatedAt: now() })
      .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')));
    summary.expired++;
  }
  return summary;
}
