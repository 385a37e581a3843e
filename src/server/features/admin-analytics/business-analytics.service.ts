import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import type {
  BusinessAnalytics,
  BusinessDay,
  BusinessRange,
  PlanRevenue,
  TopUser,
} from '@shared/admin-analytics';
import { sql } from 'drizzle-orm';
import { withRollupSnapshot } from './platform-rollup.service';
import { iso, rowsOf } from './sql-rows';

/*
 * Analytics: the platform's business figures over a range of UTC days. Messages and replies come from
 * the per-user daily roll-up plus the events after it; sign-ups, payments and subscriptions from their
 * own tables (users, orders, subscriptions, pricing_plans). Money is in kobo, as stored.
 */

const DAY_MS = 86_400_000;
const RANGE_DAYS: Record<BusinessRange, number> = { '7d': 7, '30d': 30, '90d': 90, '365d': 365 };
const TOP_USERS = 10;
/** Orders that brought money in (a refunded order was paid once: it still marks a conversion). */
const PAID_STATUSES = sql.raw(`'success', 'refunded'`);

function dayKey(value: Date | string): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return new Date(value).toISOString().slice(0, 10);
}

export async function getBusinessAnalytics(options: {
  db: Database;
  range: BusinessRange;
}): Promise<BusinessAnalytics> {
  const { db, range } = options;
  const at = now();
  const dayCount = RANGE_DAYS[range];
  const from = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS - (dayCount - 1) * DAY_MS);
  const fromIso = from.toISOString();
  const fromDay = fromIso.slice(0, 10);

  // One snapshot for the watermark and every read that adds the tail after it (withRollupSnapshot).
  return withRollupSnapshot(db, async (db, progress) => {
    const watermark = progress.lastEventId;
    // The roll-up's days and the live tail after it, as one relation.
    const userDays = sql`(
    SELECT day, user_id, sent, replied FROM platform_user_daily
    UNION ALL
    SELECT (occurred_at AT TIME ZONE 'UTC')::date, user_id,
      count(*) FILTER (WHERE type = 'sent'), count(*) FILTER (WHERE type = 'replied')
    FROM email_events WHERE id > ${watermark} AND type IN ('sent', 'replied')
    GROUP BY 1, 2
  )`;

    const [signups, firsts, volume, conversions, revenue, plans, churn, top, totalUsers] = await Promise.all([
      db.execute(sql`
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n FROM "user"
      WHERE created_at >= ${fromIso}::timestamptz GROUP BY 1`),
      // Activation: the day of a person's first message sent (kept per user by the roll-up), and whether
      // they signed up in the range.
      db.execute(sql`
      SELECT f.first_day AS day, count(*)::int AS n,
        count(*) FILTER (WHERE u.created_at >= ${fromIso}::timestamptz)::int AS from_signups
      FROM (
        SELECT user_id, min(first_day) AS first_day FROM (
          SELECT user_id, first_sent_day AS first_day FROM platform_user_totals WHERE first_sent_day IS NOT NULL
          UNION ALL
          SELECT user_id, min((occurred_at AT TIME ZONE 'UTC')::date) FROM email_events
          WHERE id > ${watermark} AND type = 'sent' GROUP BY user_id
        ) s GROUP BY user_id
      ) f
      LEFT JOIN "user" u ON u.id = f.user_id
      WHERE f.first_day >= ${fromDay}::date OR u.created_at >= ${fromIso}::timestamptz
      GROUP BY 1`),
      // Platform-wide volume per day from the hourly roll-up (a few rows an hour), not the per-user days.
      db.execute(sql`
      SELECT day, sum(sent)::bigint AS sent, sum(replied)::bigint AS replied FROM (
        SELECT (hour AT TIME ZONE 'UTC')::date AS day, sum(count) FILTER (WHERE type = 'sent') AS sent,
          sum(count) FILTER (WHERE type = 'replied') AS replied
        FROM platform_hourly_events
        WHERE hour >= ${fromIso}::timestamptz AND type IN ('sent', 'replied') GROUP BY 1
        UNION ALL
        SELECT (occurred_at AT TIME ZONE 'UTC')::date, count(*) FILTER (WHERE type = 'sent'),
          count(*) FILTER (WHERE type = 'replied')
        FROM email_events WHERE id > ${watermark} AND type IN ('sent', 'replied') GROUP BY 1
      ) v
      WHERE day >= ${fromDay}::date GROUP BY 1`),
      db.execute(sql`
      SELECT (first_paid AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n
      FROM (
        SELECT user_id, min(paid_at) AS first_paid FROM orders
        WHERE status IN (${PAID_STATUSES}) AND paid_at IS NOT NULL GROUP BY user_id
      ) f
      WHERE first_paid >= ${fromIso}::timestamptz GROUP BY 1`),
      db.execute(sql`
      SELECT (paid_at AT TIME ZONE 'UTC')::date AS day, sum(amount)::bigint AS kobo FROM orders
      WHERE status = 'success' AND paid_at >= ${fromIso}::timestamptz GROUP BY 1`),
      db.execute(sql`
      SELECT p.id, p.name, p.sort_order,
        count(u.id)::int AS subscribers,
        coalesce(sum(CASE WHEN u.subscription_interval = 'annual' THEN p.price_annual / 12.0
          ELSE p.price_monthly END) FILTER (WHERE u.id IS NOT NULL), 0)::bigint AS mrr
      FROM pricing_plans p
      LEFT JOIN "user" u ON u.subscription_plan = p.id AND u.subscription_status = 'active'
      WHERE p.id <> 'free'
      GROUP BY p.id, p.name, p.sort_order
      ORDER BY p.sort_order, p.id`),
      // Churn: subscriptions that ended in the range, on the plan of their last paid order.
      db.execute(sql`
      SELECT coalesce(last_order.plan_id, 'unknown') AS plan_id, count(*)::int AS n
      FROM subscriptions s
      LEFT JOIN LATERAL (
        SELECT o.plan_id FROM orders o
        WHERE o.user_id = s.user_id AND o.status IN (${PAID_STATUSES})
        ORDER BY o.created_at DESC LIMIT 1
      ) last_order ON true
      WHERE s.ended_at >= ${fromIso}::timestamptz
      GROUP BY 1`),
      db.execute(sql`
      SELECT d.user_id, u.email, u.name, u.subscription_plan AS plan,
        sum(d.sent)::bigint AS sent, sum(d.replied)::bigint AS replied
      FROM ${userDays} d JOIN "user" u ON u.id = d.user_id
      WHERE d.day >= ${fromDay}::date
      GROUP BY d.user_id, u.email, u.name, u.subscription_plan
      HAVING sum(d.sent) > 0
      ORDER BY sum(d.sent) DESC, d.user_id
      LIMIT ${TOP_USERS}`),
      db.execute(sql`SELECT count(*)::int AS n FROM "user"`),
    ]);

    const days: BusinessDay[] = Array.from({ length: dayCount }, (_, index) => ({
      day: new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10),
      signups: 0,
      activations: 0,
      conversions: 0,
      sent: 0,
      replied: 0,
      revenue: 0,
    }));
    const byDay = new Map(days.map((day) => [day.day, day]));

    for (const row of rowsOf<{ day: string | Date; n: number }>(signups)) {
      const day = byDay.get(dayKey(row.day));
      if (day) day.signups += Number(row.n);
    }
    let signupsActivated = 0;
    for (const row of rowsOf<{ day: string | Date; n: number; from_signups: number }>(firsts)) {
      signupsActivated += Number(row.from_signups);
      const day = byDay.get(dayKey(row.day));
      if (day) day.activations += Number(row.n);
    }
    for (const row of rowsOf<{ day: string | Date; sent: string | number; replied: string | number }>(
      volume,
    )) {
      const day = byDay.get(dayKey(row.day));
      if (!day) continue;
      day.sent += Number(row.sent);
      day.replied += Number(row.replied);
    }
    for (const row of rowsOf<{ day: string | Date; n: number }>(conversions)) {
      const day = byDay.get(dayKey(row.day));
      if (day) day.conversions += Number(row.n);
    }
    for (const row of rowsOf<{ day: string | Date; kobo: string | number }>(revenue)) {
      const day = byDay.get(dayKey(row.day));
      if (day) day.revenue += Number(row.kobo);
    }

    const churnByPlan = new Map(
      rowsOf<{ plan_id: string; n: number }>(churn).map((row) => [row.plan_id, Number(row.n)]),
    );
    const planRows: PlanRevenue[] = rowsOf<{
      id: string;
      name: string;
      subscribers: number;
      mrr: string | number;
    }>(plans).map((row) => {
      const subscribers = Number(row.subscribers);
      const churned = churnByPlan.get(row.id) ?? 0;
      churnByPlan.delete(row.id);
      return {
        planId: row.id,
        planName: row.name,
        subscribers,
        mrr: Number(row.mrr),
        churned,
        churnRate: subscribers + churned > 0 ? churned / (subscribers + churned) : null,
      };
    });
    // Ended subscriptions whose plan is gone from the price list still count as churn.
    for (const [planId, churned] of churnByPlan) {
      planRows.push({ planId, planName: planId, subscribers: 0, mrr: 0, churned, churnRate: 1 });
    }

    const topUsers: TopUser[] = rowsOf<{
      user_id: string;
      email: string;
      name: string;
      plan: string;
      sent: string | number;
      replied: string | number;
    }>(top).map((row) => ({
      userId: row.user_id,
      email: row.email,
      name: row.name,
      plan: row.plan,
      sent: Number(row.sent),
      replied: Number(row.replied),
    }));

    const total = (key: keyof Omit<BusinessDay, 'day'>) => days.reduce((sum, day) => sum + day[key], 0);
    return {
      generatedAt: at.toISOString(),
      range,
      from: fromIso,
      rolledUpAt: iso(progress.updatedAt),
      totals: {
        signups: total('signups'),
        activations: total('activations'),
        signupsActivated,
        conversions: total('conversions'),
        revenue: total('revenue'),
        mrr: planRows.reduce((sum, plan) => sum + plan.mrr, 0),
        payingSubscribers: planRows.reduce((sum, plan) => sum + plan.subscribers, 0),
        churned: planRows.reduce((sum, plan) => sum + plan.churned, 0),
        sent: total('sent'),
        replied: total('replied'),
        totalUsers: Number(rowsOf<{ n: number }>(totalUsers)[0]?.n ?? 0),
      },
      days,
      plans: planRows,
      topUsers,
    };
  });
}
