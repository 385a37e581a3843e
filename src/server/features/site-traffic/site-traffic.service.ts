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

const RANGE_MS: Record<TrafficRange, number> = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** Views, daily visitors, top pages, referrers, countries and the sign-up funnel over a range. */
export async function getWebsiteTraffic({
  db,
  range,
}: {
  db: Database;
  range: TrafficRange;
}): Promise<WebsiteTraffic> {
  const at = now();
  const since = new Date(at.getTime() - RANGE_MS[range]);
  const unit = range === '24h' ? 'hour' : 'day';
  const inRange = sql`occurred_at >= ${since} AND occurred_at <= ${at}`;
  const grouped = <T>(column: string) =>
    db
      .execute(sql`
        SELECT ${sql.raw(column)} AS key, count(*)::int AS views, count(DISTINCT visitor_hash)::int AS visitors
        FROM site_page_views WHERE ${inRange}
        GROUP BY 1 ORDER BY views DESC, key LIMIT ${TOP_ROWS}`)
      .then((r) => rowsOf<T>(r));

  const [totals, series, pages, referrers, countries, signUpVisitors, accounts] = await Promise.all([
    db
      .execute(sql`
        SELECT count(*)::int AS views, count(DISTINCT visitor_hash)::int AS visitors
        FROM site_page_views WHERE ${inRange}`)
      .then((r) => rowsOf<{ views: number; visitors: number }>(r)[0]),
    db
      .execute(sql`
        SELECT date_trunc(${unit}, occurred_at, 'UTC') AS at, count(*)::int AS views,
               count(DISTINCT visitor_hash)::int AS visitors
        FROM site_page_views WHERE ${inRange} GROUP BY 1 ORDER BY 1`)
      .then((r) => rowsOf<{ at: string | Date; views: number; visitors: number }>(r)),
    grouped<{ key: string; views: number; visitors: number }>('path'),
    db
      .execute(sql`
        SELECT referrer_host AS key, count(*)::int AS views, count(DISTINCT visitor_hash)::int AS visitors
        FROM site_page_views WHERE ${inRange} AND referrer_host IS NOT NULL
        GROUP BY 1 ORDER BY views DESC, key LIMIT ${TOP_ROWS}`)
      .then((r) => rowsOf<{ key: string; views: number; visitors: number }>(r)),
    grouped<{ key: string | null; views: number; visitors: number }>('country'),
    db
      .execute(sql`
        SELECT count(DISTINCT visitor_hash)::int AS n FROM site_page_views
        WHERE ${inRange} AND path = ${SIGN_UP_PAGE_PATH}`)
      .then((r) => rowsOf<{ n: number }>(r)[0]?.n ?? 0),
    db
      .execute(sql`SELECT count(*)::int AS n FROM "user" WHERE created_at >= ${since} AND role = 'user'`)
      .then((r) => rowsOf<{ n: number }>(r)[0]?.n ?? 0),
  ]);

  return {
    range,
    since: since.toISOString(),
    generatedAt: at.toISOString(),
    views: totals?.views ?? 0,
    visitors: totals?.visitors ?? 0,
    series: fillBuckets(series, since, at, unit),
    topPages: pages.map((p) => ({ path: p.key, views: p.views, visitors: p.visitors })),
    referrers: referrers.map((p) => ({ host: p.key, views: p.views, visitors: p.visitors })),
    countries: countries.map((p) => ({ country: p.key, views: p.views, visitors: p.visitors })),
    signUp: {
      pagePath: SIGN_UP_PAGE_PATH,
      visitors: signUpVisitors,
      accountsCreated: accounts,
      conversionRate: signUpVisitors > 0 ? accounts / signUpVisitors : null,
    },
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
