import { lt, sql } from 'drizzle-orm';
import {
  PAGE_VIEW_RETENTION_DAYS,
  type PageViewBeacon,
  SIGN_UP_PAGE_PATH,
  type TrafficRange,
  type WebsiteTraffic,
} from '../../../shared/site-traffic';
import type { Database } from '../../db/client';
import { sitePageViews, siteTrafficSalts } from '../../db/schema/index';
import { now } from '../../lib/clock';
import { lookupGeo } from '../currency/currency.service';
import {
  dailySalt,
  isBotUserAgent,
  normalizePath,
  optedOut,
  referrerHost,
  utcDay,
  visitorHash,
} from './visitor';

const DAY_MS = 86_400_000;
const TOP_ROWS = 10;

export type PageViewOutcome = 'recorded' | 'bot' | 'opted_out';

/**
 * Records one page view of the public site. The address is used for the day's visitor hash and the
 * country, then dropped: it is never written anywhere.
 */
export async function recordPageView(options: {
  db: Database;
  beacon: PageViewBeacon;
  ip: string;
  userAgent: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  ownHosts: string[];
}): Promise<PageViewOutcome> {
  if (optedOut(options.headers)) return 'opted_out';
  if (isBotUserAgent(options.userAgent)) return 'bot';
  const at = now();
  const salt = await dailySalt(options.db, utcDay(at));
  await options.db.insert(sitePageViews).values({
    occurredAt: at,
    path: normalizePath(options.beacon.path),
    referrerHost: referrerHost(options.beacon.referrer, options.ownHosts),
    country: lookupGeo(options.ip).country,
    visitorHash: visitorHash(salt, options.ip, options.userAgent ?? ''),
  });
  return 'recorded';
}

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** Each page view under each dimension it is counted in (the day's total, its path, referrer, country). */
const DIMENSIONS = sql`CROSS JOIN LATERAL (VALUES ('total', ''), ('path', v.path), ('referrer', v.referrer_host),
  ('country', coalesce(v.country, ''))) AS d(dimension, key)`;

/**
 * Rolls up one finished UTC day from the raw page views (again, if it was rolled up before). A day
 * nobody visited still gets its zero total row: that row marks the day as done.
 */
export async function rollUpTrafficDay({ db, day }: { db: Database; day: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM site_traffic_daily WHERE day = ${day}::date`);
    await tx.execute(sql`
      INSERT INTO site_traffic_daily (day, dimension, key, views, visitors)
      SELECT ${day}::date, d.dimension, d.key, count(*)::int, count(DISTINCT v.visitor_hash)::int
      FROM site_page_views v ${DIMENSIONS}
      WHERE v.occurred_at >= (${day}::date)::timestamp AT TIME ZONE 'UTC'
        AND v.occurred_at < (${day}::date + 1)::timestamp AT TIME ZONE 'UTC' AND d.key IS NOT NULL
      GROUP BY d.dimension, d.key`);
    await tx.execute(sql`
      INSERT INTO site_traffic_daily (day, dimension, key, views, visitors)
      VALUES (${day}::date, 'total', '', 0, 0) ON CONFLICT DO NOTHING`);
  });
}

/** Rolls up every finished day from `from` up to yesterday that has no roll-up yet. Answers how many. */
export async function rollUpMissingTrafficDays({
  db,
  from,
}: {
  db: Database;
  from: string;
}): Promise<number> {
  const today = utcDay(now());
  const missing = rowsOf<{ day: string }>(
    await db.execute(sql`
      SELECT to_char(d, 'YYYY-MM-DD') AS day
      FROM generate_series(${from}::date, ${today}::date - 1, interval '1 day') AS d
      WHERE NOT EXISTS (
        SELECT 1 FROM site_traffic_daily t WHERE t.day = d::date AND t.dimension = 'total' AND t.key = '')`),
  );
  for (const { day } of missing) await rollUpTrafficDay({ db, day });
  return missing.length;
}

/** Views, daily visitors, top pages, referrers, countries and the sign-up funnel over a range. */
export async function getWebsiteTraffic({
  db,
  range,
}: {
  db: Database;
  range: TrafficRange;
}): Promise<WebsiteTraffic> {
  return range === '24h' ? lastDayTraffic(db) : daysTraffic(db, range === '7d' ? 7 : 30, range);
}

type Keyed = { dimension: string; key: string; views: number; visitors: number };

/** The last N calendar days (UTC, today included): finished days from the roll-up, today from raw rows. */
async function daysTraffic(db: Database, days: number, range: TrafficRange): Promise<WebsiteTraffic> {
  const at = now();
  const today = utcDay(at);
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS);
  const first = utcDay(since);
  await rollUpMissingTrafficDays({ db, from: first });
  const source = sql`(
    SELECT day, dimension, key, views, visitors FROM site_traffic_daily
    WHERE day >= ${first}::date AND day < ${today}::date
    UNION ALL
    SELECT ${today}::date, d.dimension, d.key, count(*)::int, count(DISTINCT v.visitor_hash)::int
    FROM site_page_views v ${DIMENSIONS}
    WHERE v.occurred_at >= ${new Date(`${today}T00:00:00Z`)} AND v.occurred_at <= ${at} AND d.key IS NOT NULL
    GROUP BY d.dimension, d.key) AS s`;
  const [keyed, series, accounts] = await Promise.all([
    db
      .execute(sql`
        SELECT dimension, key, sum(views)::int AS views, sum(visitors)::int AS visitors FROM ${source}
        GROUP BY dimension, key`)
      .then((r) => rowsOf<Keyed>(r)),
    db
      .execute(sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(views)::int AS views, sum(visitors)::int AS visitors
        FROM ${source} WHERE dimension = 'total' GROUP BY day`)
      .then((r) => rowsOf<{ day: string; views: number; visitors: number }>(r)),
    accountsCreatedSince(db, since),
  ]);
  const top = (dimension: string) =>
    keyed
      .filter((k) => k.dimension === dimension)
      .sort((a, b) => b.views - a.views || a.key.localeCompare(b.key))
      .slice(0, TOP_ROWS);
  const total = keyed.find((k) => k.dimension === 'total');
  const signUpVisitors =
    keyed.find((k) => k.dimension === 'path' && k.key === SIGN_UP_PAGE_PATH)?.visitors ?? 0;
  return {
    range,
    since: since.toISOString(),
    generatedAt: at.toISOString(),
    views: total?.views ?? 0,
    visitors: total?.visitors ?? 0,
    series: fillBuckets(
      series.map((r) => ({ at: `${r.day}T00:00:00Z`, views: r.views, visitors: r.visitors })),
      since,
      at,
      'day',
    ),
    topPages: top('path').map((p) => ({ path: p.key, views: p.views, visitors: p.visitors })),
    referrers: top('referrer').map((p) => ({ host: p.key, views: p.views, visitors: p.visitors })),
    countries: top('country').map((p) => ({ country: p.key || null, views: p.views, visitors: p.visitors })),
    signUp: signUpFunnel(signUpVisitors, accounts),
    retentionDays: PAGE_VIEW_RETENTION_DAYS,
  };
}

async function accountsCreatedSince(db: Database, since: Date): Promise<number> {
  const result = await db.execute(
    sql`SELECT count(*)::int AS n FROM "user" WHERE created_at >= ${since} AND role = 'user'`,
  );
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

function signUpFunnel(visitors: number, accountsCreated: number) {
  return {
    pagePath: SIGN_UP_PAGE_PATH,
    visitors,
    accountsCreated,
    conversionRate: visitors > 0 ? accountsCreated / visitors : null,
  };
}

/** The last 24 hours by the hour, from the raw page views (a day's worth at most). */
async function lastDayTraffic(db: Database): Promise<WebsiteTraffic> {
  const at = now();
  const since = new Date(at.getTime() - DAY_MS);
  const [keyed, series, accounts] = await Promise.all([
    db
      .execute(sql`
        SELECT d.dimension, d.key, count(*)::int AS views, count(DISTINCT v.visitor_hash)::int AS visitors
        FROM site_page_views v ${DIMENSIONS}
        WHERE v.occurred_at >= ${since} AND v.occurred_at <= ${at} AND d.key IS NOT NULL
        GROUP BY d.dimension, d.key`)
      .then((r) => rowsOf<Keyed>(r)),
    db
      .execute(sql`
        SELECT date_trunc('hour', occurred_at, 'UTC') AS at, count(*)::int AS views,
               count(DISTINCT visitor_hash)::int AS visitors
        FROM site_page_views WHERE occurred_at >= ${since} AND occurred_at <= ${at} GROUP BY 1`)
      .then((r) => rowsOf<{ at: string | Date; views: number; visitors: number }>(r)),
    accountsCreatedSince(db, since),
  ]);
  const top = (dimension: string) =>
    keyed
      .filter((k) => k.dimension === dimension)
      .sort((a, b) => b.views - a.views || a.key.localeCompare(b.key))
      .slice(0, TOP_ROWS);
  const total = keyed.find((k) => k.dimension === 'total');
  const signUpVisitors =
    keyed.find((k) => k.dimension === 'path' && k.key === SIGN_UP_PAGE_PATH)?.visitors ?? 0;
  return {
    range: '24h',
    since: since.toISOString(),
    generatedAt: at.toISOString(),
    views: total?.views ?? 0,
    visitors: total?.visitors ?? 0,
    series: fillBuckets(series, since, at, 'hour'),
    topPages: top('path').map((p) => ({ path: p.key, views: p.views, visitors: p.visitors })),
    referrers: top('referrer').map((p) => ({ host: p.key, views: p.views, visitors: p.visitors })),
    countries: top('country').map((p) => ({ country: p.key || null, views: p.views, visitors: p.visitors })),
    signUp: signUpFunnel(signUpVisitors, accounts),
    retentionDays: PAGE_VIEW_RETENTION_DAYS,
  };
}

/** Every hour (or day) of the range, oldest first, zero where nobody came. */
function fillBuckets(
  rows: { at: string | Date; views: number; visitors: number }[],
  since: Date,
  until: Date,
  unit: 'hour' | 'day',
) {
  const step = unit === 'hour' ? 3_600_000 : DAY_MS;
  const byStart = new Map(rows.map((r) => [new Date(r.at).getTime(), r]));
  const first = Math.floor(since.getTime() / step) * step;
  const buckets = [];
  for (let start = first; start <= until.getTime(); start += step) {
    const row = byStart.get(start);
    buckets.push({ at: new Date(start).toISOString(), views: row?.views ?? 0, visitors: row?.visitors ?? 0 });
  }
  return buckets;
}

/** Page views past the retention, and salts of past days. Idempotent. */
export async function purgeOldPageViews({ db }: { db: Database }): Promise<{ views: number }> {
  const at = now();
  const cutoff = new Date(at.getTime() - PAGE_VIEW_RETENTION_DAYS * DAY_MS);
  const deleted = await db.execute(sql`
    WITH gone AS (DELETE FROM site_page_views WHERE occurred_at < ${cutoff} RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  await db.delete(siteTrafficSalts).where(lt(siteTrafficSalts.day, utcDay(at)));
  await db.execute(sql`DELETE FROM site_traffic_daily WHERE day < ${utcDay(cutoff)}::date`);
  return { views: rowsOf<{ n: number }>(deleted)[0]?.n ?? 0 };
}

/** Page views older than the retention: what the next purge removes (for Cost Optimization). */
export async function countExpiredPageViews({ db }: { db: Database }): Promise<number> {
  const cutoff = new Date(now().getTime() - PAGE_VIEW_RETENTION_DAYS * DAY_MS);
  const result = await db.execute(
    sql`SELECT count(*)::int AS n FROM site_page_views WHERE occurred_at < ${cutoff}`,
  );
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}
