import type { Database } from '@server/db/client';
import { orders, subscriptions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import type {
  AdminOrder,
  AdminOrderListQuery,
  AdminSubscription,
  AdminSubscriptionListQuery,
  Subscription,
} from '@shared/payments';
import { type BillingInterval, isBillingInterval, isPlanId, type PlanId } from '@shared/plans';
import { and, count, desc, eq, gte, ilike, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { listPricingPlans, monthlyValue } from '../plans/plans.service';
import {
  DAY_MS,
  ensureSubscriptionRow,
  getUserRow,
  planOf,
  toPayment,
  toSubscriptionView,
} from './billing.service';

const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function orderFilters(query: AdminOrderListQuery): SQL | undefined {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(orders.status, query.status));
  if (query.plan) filters.push(eq(orders.planId, query.plan));
  if (query.from) filters.push(gte(orders.createdAt, new Date(`${query.from}T00:00:00.000Z`)));
  if (query.to)
    filters.push(lt(orders.createdAt, new Date(new Date(`${query.to}T00:00:00.000Z`).getTime() + DAY_MS)));
  if (query.search) {
    const pattern = likePattern(query.search);
    filters.push(or(ilike(users.email, pattern), ilike(orders.reference, pattern)) as SQL);
  }
  return filters.length > 0 ? and(...filters) : undefined;
}

type OrderWithUser = { order: typeof orders.$inferSelect; email: string | null; name: string | null };

function toAdminOrder(row: OrderWithUser): AdminOrder {
  return {
    ...toPayment(row.order),
    userId: row.order.userId,
    userEmail: row.email,
    userName: row.name,
    refundReason: row.order.refundReason,
  };
}

async function selectOrders(db: Database, where: SQL | undefined, limit: number, offset: number) {
  return db
    .select({ order: orders, email: users.email, name: users.name })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
    .offset(offset);
}

export async function listAdminOrders({ db, query }: { db: Database; query: AdminOrderListQuery }) {
  const where = orderFilters(query);
  const rows = await selectOrders(db, where, query.pageSize, (query.page - 1) * query.pageSize);
  const [totals] = await db
    .select({
      total: count(),
      revenue: sql<number>`coalesce(sum(case when ${orders.status} = 'success' then ${orders.amount} else 0 end), 0)::int`,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(where);
  return {
    orders: rows.map(toAdminOrder),
    total: totals?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    revenue: Number(totals?.revenue ?? 0),
  };
}

/** A spreadsheet must not run what a user typed: cells that start like a formula are prefixed with '. */
export function escapeCsvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const CSV_COLUMNS = [
  'created_at',
  'reference',
  'email',
  'name',
  'plan',
  'interval',
  'kind',
  'amount_ngn',
  'credit_ngn',
  'currency',
  'status',
  'channel',
  'card',
  'paid_at',
  'period_start',
  'period_end',
  'refunded_at',
  'refund_reason',
  'failure_reason',
] as const;

/** Every order matching the filters, newest first, as CSV (keyset batches, never all in memory at once). */
export async function* adminOrdersCsv({ db, query }: { db: Database; query: AdminOrderListQuery }) {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  const where = orderFilters(query);
  const batch = 500;
  for (let offset = 0; ; offset += batch) {
    const rows = await selectOrders(db, where, batch, offset);
    let chunk = '';
    for (const row of rows) {
      const o = toAdminOrder(row);
      const cells = [
        o.createdAt,
        o.reference,
        o.userEmail,
        o.userName,
        o.planId,
        o.interval,
        o.kind,
        (o.amount / 100).toFixed(2),
        (o.credit / 100).toFixed(2),
        o.currency,
        o.status,
        o.channel,
        o.cardLast4 ? `${o.cardBrand ?? 'card'} ${o.cardLast4}` : '',
        o.paidAt,
        o.periodStart,
        o.periodEnd,
        o.refundedAt,
        o.refundReason,
        o.failureReason,
      ];
      chunk += `${cells.map(escapeCsvCell).join(',')}\r\n`;
    }
    if (chunk) yield chunk;
    if (rows.length < batch) return;
  }
}

export async function getAdminOrder({ db, id }: { db: Database; id: string }): Promise<AdminOrder> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Order not found');
  const [row] = await selectOrders(db, eq(orders.id, id), 1, 0);
  if (!row) throw notFound('Order not found');
  return toAdminOrder(row);
}

/**
 * Marks a successful payment refunded (the money itself goes back through the Paystack dashboard or its
 * refund API), optionally ending the subscription it paid for. Audited.
 */
export async function refundOrder(options: {
  db: Database;
  actor: AuditActor;
  id: string;
  reason: string;
  endSubscription: boolean;
}): Promise<AdminOrder> {
  const before = await getAdminOrder({ db: options.db, id: options.id });
  if (before.status !== 'success') {
    throw new AppError('bad_request', 'Only a successful payment can be refunded.');
  }
  const at = now();
  await options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await tx
      .update(orders)
      .set({ status: 'refunded', refundedAt: at, refundReason: options.reason, updatedAt: at })
      .where(and(eq(orders.id, options.id), eq(orders.status, 'success')));
    if (options.endSubscription) {
      await tx
        .update(users)
        .set({ subscriptionStatus: 'cancelled', subscriptionCurrentPeriodEnd: at, updatedAt: at })
        .where(and(eq(users.id, before.userId), ne(users.subscriptionPlan, 'free')));
      await ensureSubscriptionRow(tx, before.userId);
      await tx
        .update(subscriptions)
        .set({ cancelAtPeriodEnd: false, nextRetryAt: null, endedAt: at, updatedAt: at })
        .where(eq(subscriptions.userId, before.userId));
    }
    await recordAuditEntry({
      db: tx,
      actor: options.actor,
      action: 'order.refunded',
      targetType: 'order',
      targetId: options.id,
      details: {
        reference: before.reference,
        email: before.userEmail,
        amount: before.amount,
        reason: options.reason,
        endSubscription: options.endSubscription,
      },
    });
  });
  return getAdminOrder({ db: options.db, id: options.id });
}

/** A paid plan with no status is an unpaid choice: the same "incomplete" the blocked screen shows. */
const stateSql = sql<string>`coalesce(${users.subscriptionStatus}, 'incomplete')`;

export async function listAdminSubscriptions({
  db,
  query,
}: {
  db: Database;
  query: AdminSubscriptionListQuery;
}) {
  const at = now();
  const base = or(
    ne(users.subscriptionPlan, 'free'),
    sql`${users.subscriptionStatus} in ('cancelled','expired')`,
  ) as SQL;
  const filters: SQL[] = [base];
  if (query.status) filters.push(sql`${stateSql} = ${query.status}`);
  if (query.plan) filters.push(eq(users.subscriptionPlan, query.plan));
  if (query.search) {
    const pattern = likePattern(query.search);
    filters.push(or(ilike(users.email, pattern), ilike(users.name, pattern)) as SQL);
  }
  const where = and(...filters);
  const plans = new Map((await listPricingPlans({ db, includeInactive: true })).map((p) => [p.id, p]));
  const monthlyValueOf = (
    planId: string,
    interval: string | null,
    status: string | null,
    end: Date | null,
  ) => {
    const plan = isPlanId(planId) ? plans.get(planId) : undefined;
    if (!plan || planId === 'free' || status !== 'active' || !end || end <= at) return 0;
    return monthlyValue(plan, isBillingInterval(interval) ? interval : 'monthly');
  };
  const rows = await db
    .select({ user: users, sub: subscriptions })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(where)
    .orderBy(desc(users.subscriptionCurrentPeriodEnd), desc(users.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await db.select({ value: count() }).from(users).where(where);

  const byStatusRows = await db
    .select({ state: stateSql, value: count() })
    .from(users)
    .where(base)
    .groupBy(stateSql);
  const byPlanRows = await db
    .select({ plan: users.subscriptionPlan, value: count() })
    .from(users)
    .where(and(base, eq(users.subscriptionStatus, 'active')))
    .groupBy(users.subscriptionPlan);
  const activeRows = await db
    .select({ plan: users.subscriptionPlan, interval: users.subscriptionInterval, value: count() })
    .from(users)
    .where(
      and(
        ne(users.subscriptionPlan, 'free'),
        eq(users.subscriptionStatus, 'active'),
        gte(users.subscriptionCurrentPeriodEnd, at),
      ),
    )
    .groupBy(users.subscriptionPlan, users.subscriptionInterval);
  let mrr = 0;
  let activeCount = 0;
  for (const row of activeRows) {
    const plan = isPlanId(row.plan) ? plans.get(row.plan) : undefined;
    if (!plan) continue;
    mrr += monthlyValue(plan, isBillingInterval(row.interval) ? row.interval : 'monthly') * row.value;
    activeCount += row.value;
  }
  const [churn] = await db
    .select({ value: count() })
    .from(subscriptions)
    .where(gte(subscriptions.endedAt, new Date(at.getTime() - 30 * DAY_MS)));
  const churned = churn?.value ?? 0;

  const list: AdminSubscription[] = rows.map(({ user, sub }) => ({
    userId: user.id,
    email: user.email,
    name: user.name,
    planId: planOf(user),
    status: user.subscriptionStatus,
    interval: isBillingInterval(user.subscriptionInterval)
      ? (user.subscriptionInterval as BillingInterval)
      : null,
    currentPeriodEnd: user.subscriptionCurrentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
    pendingPlanId: sub?.pendingPlan && isPlanId(sub.pendingPlan) ? (sub.pendingPlan as PlanId) : null,
    renewalAttempts: sub?.renewalAttempts ?? 0,
    monthlyValue: monthlyValueOf(
      user.subscriptionPlan,
      user.subscriptionInterval,
      user.subscriptionStatus,
      user.subscriptionCurrentPeriodEnd,
    ),
    cardBrand: sub?.cardBrand ?? null,
    cardLast4: sub?.cardLast4 ?? null,
  }));
  return {
    subscriptions: list,
    total: total?.value ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    summary: {
      byStatus: Object.fromEntries(byStatusRows.map((r) => [r.state, r.value])),
      byPlan: Object.fromEntries(byPlanRows.map((r) => [r.plan, r.value])),
      mrr,
      activeCount,
      churnedLast30Days: churned,
      churnRate: activeCount + churned > 0 ? churned / (activeCount + churned) : 0,
    },
  };
}

/** Gives a paid subscriber extra days (goodwill, outage credit). The period runs on from its end, or now. */
export async function extendSubscription(options: {
  db: Database;
  actor: AuditActor;
  userId: string;
  days: number;
  reason: string;
}): Promise<Subscription> {
  const { db } = options;
  const user = await getUserRow(db, options.userId);
  if (planOf(user) === 'free') {
    throw new AppError(
      'bad_request',
      'This user is on the Free plan: change their plan before extending it.',
    );
  }
  const at = now();
  const from =
    user.subscriptionCurrentPeriodEnd && user.subscriptionCurrentPeriodEnd > at
      ? user.subscriptionCurrentPeriodEnd
      : at;
  const to = new Date(from.getTime() + options.days * DAY_MS);
  await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await tx
      .update(users)
      .set({
        subscriptionStatus: 'active',
        subscriptionInterval: user.subscriptionInterval ?? 'monthly',
        subscriptionCurrentPeriodEnd: to,
        updatedAt: at,
      })
      .where(eq(users.id, user.id));
    await ensureSubscriptionRow(tx, user.id);
    await tx
      .update(subscriptions)
      .set({ renewalAttempts: 0, nextRetryAt: null, endedAt: null, updatedAt: at })
      .where(eq(subscriptions.userId, user.id));
    await recordAuditEntry({
      db: tx,
      actor: options.actor,
      action: 'subscription.extended',
      targetType: 'user',
      targetId: user.id,
      details: {
        email: user.email,
        days: options.days,
        reason: options.reason,
        from: user.subscriptionCurrentPeriodEnd?.toISOString() ?? null,
        to: to.toISOString(),
        statusBefore: user.subscriptionStatus,
      },
    });
  });
  return toSubscriptionView(db, user.id);
}
