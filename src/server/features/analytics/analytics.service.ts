import type { Database } from '@server/db/client';
import { campaignContacts, campaigns, NO_CAMPAIGN_ID, newsletters } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import {
  type Analytics,
  type AnalyticsCampaign,
  type AnalyticsDay,
  type AnalyticsPeriod,
  DAYS_PER_PLAN_MONTH,
} from '@shared/analytics';
import { type CurrencyCode, FALLBACK_RATES, isCurrencyCode } from '@shared/currency';
import { isPlanId } from '@shared/plans';
import { and, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { type CountRow, getOwnedCampaign, toCounts } from '../campaign-stats/campaign-stats.service';
import { getPricingPlan } from '../plans/plans.service';

/*
 * A subscriber's analytics over the last 7, 30 or 90 days: one grouped read of their email_events
 * (the (user_id, occurred_at) index) for the totals, each UTC day and each campaign, counted exactly as
 * the campaign page counts them (COUNT_COLUMNS); the replies marked "won" in the period for conversions
 * and revenue; and the plan's price prorated to the period for ROI (PRODUCT.md: ROI = (revenue − plan
 * cost for the period) / plan cost).
 */

const DAY_MS = 86_400_000;

/** Units of a currency per 1 NGN (the shape of /api/currency/rates). */
export type NgnRates = Partial<Record<string, number>>;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The first instant of the period: midnight UTC `days − 1` days before `at`'s day (today counts). */
export function periodStart(at: Date, days: number): Date {
  const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/** A monthly price (kobo) prorated to `days`: a 30-day period costs one month. */
export function prorateMonthlyPrice(priceMonthly: number, days: number): number {
  return Math.round((priceMonthly * days) / DAYS_PER_PLAN_MONTH);
}

/** (revenue − cost) / cost, both in kobo; null when the plan costs nothing (no ratio to speak of). */
export function returnOnInvestment(revenueKobo: number, costKobo: number): number | null {
  if (costKobo <= 0) return null;
  return Math.round(((revenueKobo - costKobo) / costKobo) * 10_000) / 10_000;
}

/** A deal value (numeric text, major units of `currency`) in kobo of naira, at the NGN-keyed rates. */
function dealToKobo(value: string, currency: CurrencyCode, rates: NgnRates): number {
  const amount = Number(value);
  if (!Number.isFinite(amount)) return 0;
  if (currency === 'NGN') return Math.round(amount * 100);
  const live = rates[currency];
  const rate =
    typeof live === 'number' && Number.isFinite(live) && live > 0 ? live : FALLBACK_RATES[currency];
  return Math.round((amount * 100) / rate);
}

type GroupedRow = CountRow & { g: number; campaign_id: string | null; day: string | null };

/** Grouping bits of (campaign_id, day): 1 → one campaign, 2 → one day, 3 → the whole period. */
const BY_CAMPAIGN = 1;
const BY_DAY = 2;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

const KINDS = ['sent', 'opened', 'opened_human', 'clicked', 'replied', 'bounced', 'unsubscribed', 'failed'];
/** Distinct subjects with an event in the rows' days: those whose last day falls in them. */
const PERIOD_COLUMNS = sql.raw(KINDS.map((c) => `coalesce(sum(r.${c}_last), 0)::int AS ${c}`).join(', '));
const PERIOD_VALUES = sql.raw(KINDS.map((c) => `${c}_last`).join(', '));
/** Distinct subjects with an event that day (the daily series). */
const DAY_COLUMNS = sql.raw(
  ['sent', 'opened_human', 'clicked', 'replied'].map((c) => `sum(r.${c})::int AS day_${c}`).join(', '),
);

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type DayRow = CountRow & {
  day: string;
  day_sent: number;
  day_opened_human: number;
  day_clicked: number;
  day_replied: number;
};

/**
 * The counts of the period from the roll-ups (schema/analytics.ts), the numbers a grouped read of
 * email_events gives (COUNT_COLUMNS): per campaign the subjects whose last event falls in the period (it
 * runs to now) — whole ISO weeks from analytics_weekly, the days at either end from analytics_daily —,
 * the totals and the daily series from analytics_user_daily (one row a day); for one campaign, its
 * analytics_daily rows.
 */
async function countEvents(
  db: Database,
  userId: string,
  from: Date,
  to: Date,
  campaignId?: string,
): Promise<GroupedRow[]> {
  const fromDay = utcDay(from);
  const toDay = utcDay(to);
  let dayRows: DayRow[];
  let campaignRows: (CountRow & { campaign_id: string })[];
  if (campaignId) {
    dayRows = rowsOf<DayRow>(
      await db.execute(sql`
        SELECT to_char(r.day, 'YYYY-MM-DD') AS day, ${PERIOD_COLUMNS}, ${DAY_COLUMNS}
        FROM analytics_daily r
        WHERE r.user_id = ${userId} AND r.campaign_id = ${campaignId}::uuid
          AND r.day >= ${fromDay}::date AND r.day <= ${toDay}::date
        GROUP BY r.day`),
    );
    campaignRows = [];
  } else {
    // Whole weeks: from the first Monday of the period to the Monday of the current week.
    const fromMs = Date.parse(`${fromDay}T00:00:00Z`);
    const toMs = Date.parse(`${toDay}T00:00:00Z`);
    const firstMonday = fromMs + ((8 - new Date(fromMs).getUTCDay()) % 7) * DAY_MS;
    const thisMonday = toMs - ((new Date(toMs).getUTCDay() + 6) % 7) * DAY_MS;
    const weeks = firstMonday < thisMonday;
    const byCampaign = weeks
      ? sql`
          SELECT campaign_id, ${PERIOD_VALUES} FROM analytics_weekly
          WHERE user_id = ${userId} AND week >= ${dayOf(firstMonday)}::date AND week < ${dayOf(thisMonday)}::date
          UNION ALL
          SELECT campaign_id, ${PERIOD_VALUES} FROM analytics_daily
          WHERE user_id = ${userId}
            AND ((day >= ${fromDay}::date AND day < ${dayOf(firstMonday)}::date)
              OR (day >= ${dayOf(thisMonday)}::date AND day <= ${toDay}::date))`
      : sql`
          SELECT campaign_id, ${PERIOD_VALUES} FROM analytics_daily
          WHERE user_id = ${userId} AND day >= ${fromDay}::date AND day <= ${toDay}::date`;
    const [days, campaigns] = await Promise.all([
      db.execute(sql`
        SELECT to_char(r.day, 'YYYY-MM-DD') AS day, ${PERIOD_COLUMNS}, ${DAY_COLUMNS}
        FROM analytics_user_daily r
        WHERE r.user_id = ${userId} AND r.day >= ${fromDay}::date AND r.day <= ${toDay}::date
        GROUP BY r.day`),
      db.execute(sql`
        SELECT r.campaign_id::text AS campaign_id, ${PERIOD_COLUMNS}
        FROM (${byCampaign}) r
        GROUP BY r.campaign_id`),
    ]);
    dayRows = rowsOf<DayRow>(days);
    campaignRows = rowsOf<CountRow & { campaign_id: string }>(campaigns);
  }
  const total: GroupedRow = {
    g: BY_CAMPAIGN + BY_DAY,
    campaign_id: null,
    day: null,
    sent: 0,
    opened: 0,
    opened_human: 0,
    clicked: 0,
    replied: 0,
    bounced: 0,
    unsubscribed: 0,
    failed: 0,
  };
  const keys = KINDS as (keyof CountRow)[];
  for (const row of dayRows) for (const key of keys) total[key] += Number(row[key]);
  if (campaignId && dayRows.length > 0) campaignRows = [{ ...total, campaign_id: campaignId }];
  return [
    total,
    ...campaignRows.map((row) => ({ ...row, g: BY_CAMPAIGN, day: null })),
    ...dayRows.map((row) => ({
      ...row,
      g: BY_DAY,
      campaign_id: null,
      sent: row.day_sent,
      opened_human: row.day_opened_human,
      clicked: row.day_clicked,
      replied: row.day_replied,
    })),
  ];
}

interface WonRow {
  campaignId: string;
  currency: string | null;
  won: number;
  value: string | null;
}

/** Contacts marked "won" in the period, per campaign and deal currency. */
async function wonDeals(
  db: Database,
  userId: string,
  from: Date,
  to: Date,
  campaignId?: string,
): Promise<WonRow[]> {
  return db
    .select({
      campaignId: campaignContacts.campaignId,
      currency: campaignContacts.dealCurrency,
      won: sql<number>`count(*)::int`,
      value: sql<string | null>`sum(${campaignContacts.dealValue})::text`,
    })
    .from(campaignContacts)
    .where(
      and(
        eq(campaignContacts.userId, userId),
        gte(campaignContacts.wonAt, from),
        lte(campaignContacts.wonAt, to),
        campaignId ? eq(campaignContacts.campaignId, campaignId) : undefined,
      ),
    )
    .groupBy(campaignContacts.campaignId, campaignContacts.dealCurrency);
}

async function hasSentAnything(db: Database, userId: string): Promise<boolean> {
  const result = await db.execute(
    sql`SELECT 1 AS one FROM email_events WHERE user_id = ${userId} AND type = 'sent' LIMIT 1`,
  );
  return rowsOf(result).length > 0;
}

/** Every UTC day of the period, oldest first, with zeros where nothing happened. */
function dailySeries(from: Date, days: number, rows: GroupedRow[]): AnalyticsDay[] {
  const byDay = new Map(rows.filter((r) => Number(r.g) === BY_DAY && r.day).map((r) => [r.day!, r]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const counts = toCounts(byDay.get(date));
    return {
      date,
      sent: counts.sent,
      opened: counts.openedHuman,
      clicked: counts.clicked,
      replied: counts.replied,
    };
  });
}

export async function getAnalytics(options: {
  db: Database;
  user: { id: string; subscriptionPlan?: string | null };
  days: AnalyticsPeriod;
  /** One campaign of the user's only (another user's answers 404). */
  campaignId?: string;
  /** Current rates keyed on NGN; read only when a deal was recorded in another currency. */
  loadRates?: () => Promise<NgnRates>;
}): Promise<Analytics> {
  const { db, user, days } = options;
  const to = now();
  const from = periodStart(to, days);
  const planId = isPlanId(user.subscriptionPlan) ? user.subscriptionPlan : 'free';
  const campaignId = options.campaignId;
  if (campaignId) await getOwnedCampaign({ db, userId: user.id, id: campaignId });

  const [grouped, wins, plan] = await Promise.all([
    countEvents(db, user.id, from, to, campaignId),
    wonDeals(db, user.id, from, to, campaignId),
    getPricingPlan({ db, id: planId }),
  ]);

  const convertedCurrencies = [
    ...new Set(
      wins.map((w) => w.currency).filter((c): c is CurrencyCode => isCurrencyCode(c) && c !== 'NGN'),
    ),
  ];
  const rates = convertedCurrencies.length > 0 && options.loadRates ? await options.loadRates() : {};

  const wonByCampaign = new Map<string, { won: number; revenueKobo: number }>();
  for (const row of wins) {
    const entry = wonByCampaign.get(row.campaignId) ?? { won: 0, revenueKobo: 0 };
    entry.won += Number(row.won);
    // Deals are charged and reported in naira; one stored without a currency is taken as naira.
    const currency = isCurrencyCode(row.currency) ? row.currency : 'NGN';
    entry.revenueKobo += row.value === null ? 0 : dealToKobo(row.value, currency, rates);
    wonByCampaign.set(row.campaignId, entry);
  }

  const countsByCampaign = new Map(
    grouped
      .filter((r) => Number(r.g) === BY_CAMPAIGN && r.campaign_id && r.campaign_id !== NO_CAMPAIGN_ID)
      .map((r) => [r.campaign_id!, r]),
  );
  const campaignIds = [...new Set([...countsByCampaign.keys(), ...wonByCampaign.keys()])];
  const meta =
    campaignIds.length === 0
      ? []
      : await db
          .select({
            id: campaigns.id,
            name: campaigns.name,
            kind: campaigns.kind,
            newsletterId: newsletters.id,
          })
          .from(campaigns)
          // A deleted newsletter's figures stay, without a link to it.
          .leftJoin(newsletters, and(eq(newsletters.campaignId, campaigns.id), isNull(newsletters.deletedAt)))
          .where(and(eq(campaigns.userId, user.id), inArray(campaigns.id, campaignIds)));

  const campaignRows: AnalyticsCampaign[] = meta
    .map((row) => {
      const won = wonByCampaign.get(row.id);
      return {
        id: row.id,
        name: row.name,
        kind: row.kind,
        newsletterId: row.kind === 'campaign' ? null : row.newsletterId,
        ...toCounts(countsByCampaign.get(row.id)),
        won: won?.won ?? 0,
        revenue: (won?.revenueKobo ?? 0) / 100,
      };
    })
    .sort((a, b) => b.sent - a.sent || b.revenue - a.revenue || a.name.localeCompare(b.name));

  let wonTotal = 0;
  let revenueKobo = 0;
  for (const entry of wonByCampaign.values()) {
    wonTotal += entry.won;
    revenueKobo += entry.revenueKobo;
  }
  const totals = toCounts(grouped.find((r) => Number(r.g) === BY_CAMPAIGN + BY_DAY));
  const planCost = prorateMonthlyPrice(plan.priceMonthly, days);

  return {
    days,
    from: from.toISOString(),
    to: to.toISOString(),
    totals: { ...totals, won: wonTotal, revenue: revenueKobo / 100 },
    convertedCurrencies,
    plan: { id: plan.id, name: plan.name, priceMonthly: plan.priceMonthly },
    planCost,
    roi: returnOnInvestment(revenueKobo, planCost),
    hasSentAny: totals.sent > 0 || (await hasSentAnything(db, user.id)),
    daily: dailySeries(from, days, grouped),
    campaigns: campaignRows,
  };
}

/**
 * Recomputes the roll-ups (analytics_daily and its marks and lasts) from email_events in one transaction
 * (migration 0044's `analytics_rebuild()`; event writers wait meanwhile). The triggers keep them in step;
 * this is for repairs and for checking them (`npm run analytics:rebuild`). Once retention has expired
 * old months of events (event-partitions.service.ts), only the kept months are recounted: the rows of the
 * expired days are their only record and stay as they are.
 */
export async function rebuildAnalytics({ db }: { db: Database }): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT analytics_rebuild()`);
  });
  const result = await db.execute(sql`SELECT count(*)::int AS n FROM analytics_daily`);
  return {
    rows: Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0),
    ms: Math.round(performance.now() - started),
  };
}
