import type { Database } from '@server/db/client';
import { sitePageViews, siteTrafficSalts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import {
  PAGE_VIEW_RETENTION_DAYS,
  type PageViewBeacon,
  SIGN_UP_PAGE_PATH,
  type TrafficRange,
  type WebsiteTraffic,
} from '@shared/site-traffic';
import { lt, sql } from 'drizzle-orm';
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

const HOUR_MS = 3_600_000;
const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * Rolls up one finished UTC day from the raw page views (again, if it was rolled up before): its totals
 * in site_traffic_daily and its hours in site_traffic_hourly, with the hour each visitor was first and
 * last seen. A day nobody visited still gets its zero total rows: the daily one marks the day as done.
 */
export async function rollUpTrafficDay({ db, day }: { db: Database; day: string }): Promise<void> {
  const from = dayStart(day);
  const until = new Date(from.getTime() + DAY_MS);
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM site_traffic_daily WHERE day = ${day}::date`);
    await tx.execute(
      sql`DELETE FROM site_traffic_hourly WHERE hour >= ${from.toISOString()}::timestamptz AND hour < ${until.toISOString()}::timestamptz`,
    );
    // Each visitor under each dimension and key, per hour they came in, read once for both tables.
    await tx.execute(sql`
      WITH x AS MATERIALIZED (
        SELECT date_trunc('hour', v.occurred_at, 'UTC') AS hour, d.dimension, d.key, v.visitor_hash,
               count(*)::int AS views
        FROM site_page_views v ${DIMENSIONS}
        WHERE v.occurred_at >= ${from.toISOString()}::timestamptz AND v.occurred_at < ${until.toISOString()}::timestamptz
          AND d.key IS NOT NULL
        GROUP BY 1, 2, 3, 4
      ), seen AS (
        SELECT dimension, key, visitor_hash, min(hour) AS first_hour, max(hour) AS last_hour, sum(views) AS views
        FROM x GROUP BY 1, 2, 3
      ), daily AS (
        INSERT INTO site_traffic_daily (day, dimension, key, views, visitors)
        SELECT ${day}::date, dimension, key, sum(views)::int, count(*)::int FROM seen GROUP BY 1, 2, 3
        RETURNING 1
      )
      INSERT INTO site_traffic_hourly (hour, dimension, key, views, visitors, first_visitors, last_visitors)
      SELECT x.hour, x.dimension, x.key, sum(x.views)::int, count(*)::int,
             count(*) FILTER (WHERE s.first_hour = x.hour)::int, count(*) FILTER (WHERE s.last_hour = x.hour)::int
      FROM x JOIN seen s USING (dimension, key, visitor_hash)
      GROUP BY 1, 2, 3`);
    await tx.execute(sql`
      INSERT INTO site_traffic_daily (day, dimension, key, views, visitors)
      VALUES (${day}::date, 'total', '', 0, 0) ON CONFLICT DO NOTHING`);
    await tx.execute(sql`
      INSERT INTO site_traffic_hourly (hour, dimension, key, views, visitors, first_visitors, last_visitors)
      SELECT h, 'total', '', 0, 0, 0, 0
      FROM generate_series(${from.toISOString()}::timestamptz, ${until.toISOString()}::timestamptz - interval '1 hour', interval '1 hour') AS h
      ON CONFLICT DO NOTHING`);
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

/**
 * The raw page views of [from, until) (at most an hour, within one UTC day) per dimension and key: views,
 * visitors, and the visitors not seen earlier that day (under the same key), found through the
 * visitor's own index entries.
 */
function hourFigures(from: Date, until: Date, inclusive = false) {
  const midnight = dayStart(utcDay(from)).toISOString();
  return sql`
    WITH pairs AS MATERIALIZED (
      SELECT d.dimension, d.key, v.visitor_hash, count(*)::int AS views
      FROM site_page_views v ${DIMENSIONS}
      WHERE v.occurred_at >= ${from.toISOString()}::timestamptz
        AND v.occurred_at ${inclusive ? sql`<=` : sql`<`} ${until.toISOString()}::timestamptz AND d.key IS NOT NULL
      GROUP BY 1, 2, 3
    ), seen AS (
      -- The same visitors' earlier views that day, each read once, under every key they count for.
      SELECT DISTINCT d.dimension, d.key, v.visitor_hash
      FROM site_page_views v ${DIMENSIONS}
      WHERE v.visitor_hash IN (SELECT visitor_hash FROM pairs WHERE dimension = 'total')
        AND v.occurred_at >= ${midnight}::timestamptz AND v.occurred_at < ${from.toISOString()}::timestamptz
        AND d.key IS NOT NULL
    )
    SELECT p.dimension, p.key, sum(p.views)::int AS views, count(*)::int AS visitors,
      count(*) FILTER (WHERE s.visitor_hash IS NULL)::int AS first_visitors
    FROM pairs p LEFT JOIN seen s USING (dimension, key, visitor_hash)
    GROUP BY 1, 2`;
}

/** Rolls up one finished hour of the current day (again, if it was). Safe to run twice at once. */
export async function rollUpTrafficHour({ db, hour }: { db: Database; hour: Date }): Promise<void> {
  const until = new Date(hour.getTime() + HOUR_MS);
  await db.execute(sql`
    INSERT INTO site_traffic_hourly (hour, dimension, key, views, visitors, first_visitors, last_visitors)
    SELECT ${hour.toISOString()}::timestamptz, dimension, key, views, visitors, first_visitors, 0
    FROM (${hourFigures(hour, until)}) f
    UNION ALL
    SELECT ${hour.toISOString()}::timestamptz, 'total', '', 0, 0, 0, 0
    WHERE NOT EXISTS (SELECT 1 FROM site_page_views
      WHERE occurred_at >= ${hour.toISOString()}::timestamptz AND occurred_at < ${until.toISOString()}::timestamptz)
    ON CONFLICT (hour, dimension, key) DO UPDATE SET views = excluded.views, visitors = excluded.visitors,
      first_visitors = excluded.first_visitors`);
}

/** Rolls up every finished hour of the current UTC day that has no roll-up yet. Answers how many. */
export async function rollUpMissingTrafficHours({ db }: { db: Database }): Promise<number> {
  const at = now();
  const midnight = dayStart(utcDay(at));
  const current = floorHour(at);
  if (current.getTime() <= midnight.getTime()) return 0;
  const missing = rowsOf<{ hour: string }>(
    await db.execute(sql`
      SELECT to_char(h AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:00:00"Z"') AS hour
      FROM generate_series(${midnight.toISOString()}::timestamptz, ${current.toISOString()}::timestamptz - interval '1 hour', interval '1 hour') AS h
      WHERE NOT EXISTS (
        SELECT 1 FROM site_traffic_hourly t WHERE t.hour = h AND t.dimension = 'total' AND t.key = '')`),
  );
  for (const { hour } of missing) await rollUpTrafficHour({ db, hour: new Date(hour) });
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

/**
 * The current UTC day so far per dimension and key: its finished hours from the hourly roll-up (visitors
 * counted in the hour they were first seen), the current hour from raw rows.
 */
function todaySoFar(at: Date) {
  const midnight = dayStart(utcDay(at)).toISOString();
  const current = floorHour(at);
  return sql`(
    SELECT dimension, key, views, first_visitors AS visitors FROM site_traffic_hourly
    WHERE hour >= ${midnight}::timestamptz AND hour < ${current.toISOString()}::timestamptz
    UNION ALL
    SELECT dimension, key, views, first_visitors FROM (${hourFigures(current, at, true)}) live)`;
}

/** The last N calendar days (UTC, today included): finished days from the daily roll-up, today by the hour. */
async function daysTraffic(db: Database, days: number, range: TrafficRange): Promise<WebsiteTraffic> {
  const at = now();
  const today = utcDay(at);
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS);
  const first = utcDay(since);
  await rollUpMissingTrafficDays({ db, from: first });
  await rollUpMissingTrafficHours({ db });
  const [keyed, series, accounts] = await Promise.all([
    db
      .execute(sql`
        SELECT dimension, key, sum(views)::int AS views, sum(visitors)::int AS visitors FROM (
          SELECT day, dimension, key, views, visitors FROM site_traffic_daily
          WHERE day >= ${first}::date AND day < ${today}::date
          UNION ALL
          SELECT ${today}::date, dimension, key, views, visitors FROM ${todaySoFar(at)} t
        ) s
        GROUP BY dimension, key`)
      .then((r) => rowsOf<Keyed>(r)),
    db
      .execute(sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, views, visitors FROM site_traffic_daily
        WHERE day >= ${first}::date AND day < ${today}::date AND dimension = 'total' AND key = ''`)
      .then((r) => rowsOf<{ day: string; views: number; visitors: number }>(r)),
    accountsCreatedSince(db, since),
  ]);
  const total = keyed.find((k) => k.dimension === 'total');
  const todayRow = { day: today, views: total?.views ?? 0, visitors: total?.visitors ?? 0 };
  for (const row of series) {
    todayRow.views -= row.views;
    todayRow.visitors -= row.visitors;
  }
  return shape({
    range,
    since,
    at,
    keyed,
    series: fillBuckets(
      [...series, todayRow].map((r) => ({ at: `${r.day}T00:00:00Z`, views: r.views, visitors: r.visitors })),
      since,
      at,
      'day',
    ),
    accounts,
  });
}

function shape({
  range,
  since,
  at,
  keyed,
  series,
  accounts,
}: {
  range: TrafficRange;
  since: Date;
  at: Date;
  keyed: Keyed[];
  series: WebsiteTraffic['series'];
  accounts: number;
}): WebsiteTraffic {
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
    series,
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

/**
 * The last 24 whole hours and the current one, by the hour, from the hourly roll-up and the current
 * hour's raw rows. A visitor hash lives one UTC day, so the window's visitors are yesterday's part
 * (counted in the hour they were last seen) plus today's (counted in the hour they were first seen).
 */
async function lastDayTraffic(db: Database): Promise<WebsiteTraffic> {
  const at = now();
  const today = utcDay(at);
  const since = new Date(floorHour(at).getTime() - DAY_MS);
  const midnight = dayStart(today).toISOString();
  await rollUpMissingTrafficDays({ db, from: utcDay(since) });
  await rollUpMissingTrafficHours({ db });
  const current = floorHour(at);
  const [keyed, hours, live, accounts] = await Promise.all([
    db
      .execute(sql`
        SELECT dimension, key, sum(views)::int AS views, sum(visitors)::int AS visitors FROM (
          SELECT dimension, key, views, last_visitors AS visitors FROM site_traffic_hourly
          WHERE hour >= ${since.toISOString()}::timestamptz AND hour < ${midnight}::timestamptz
          UNION ALL
          SELECT dimension, key, views, visitors FROM ${todaySoFar(at)} t
        ) s
        GROUP BY dimension, key`)
      .then((r) => rowsOf<Keyed>(r)),
    db
      .execute(sql`
        SELECT hour AS at, views, visitors FROM site_traffic_hourly
        WHERE hour >= ${since.toISOString()}::timestamptz AND hour < ${current.toISOString()}::timestamptz
          AND dimension = 'total' AND key = ''`)
      .then((r) => rowsOf<{ at: string | Date; views: number; visitors: number }>(r)),
    db
      .execute(sql`
        SELECT count(*)::int AS views, count(DISTINCT visitor_hash)::int AS visitors FROM site_page_views
        WHERE occurred_at >= ${current.toISOString()}::timestamptz AND occurred_at <= ${at.toISOString()}::timestamptz`)
      .then((r) => rowsOf<{ views: number; visitors: number }>(r)),
    accountsCreatedSince(db, since),
  ]);
  return shape({
    range: '24h',
    since,
    at,
    keyed,
    series: fillBuckets(
      [...hours, { at: current, views: live[0]?.views ?? 0, visitors: live[0]?.visitors ?? 0 }],
      since,
      at,
      'hour',
    ),
    accounts,
  });
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
  await db.execute(
    sql`DELETE FROM site_traffic_hourly WHERE hour < ${dayStart(utcDay(cutoff)).toISOString()}::timestamptz`,
  );
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
