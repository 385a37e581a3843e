import { randomUUID } from 'node:crypto';
import { sitePageViews, siteTrafficSalts } from '@server/db/schema/index';
import { advanceClock, resetClock } from '@server/lib/clock';
import { PAGE_VIEW_BEACON_PATH, websiteTrafficSchema } from '@shared/site-traffic';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeSiteTraffic } from './purge-site-traffic.job';
import { rollUpSiteTraffic } from './roll-up-site-traffic.job';
import { rollUpTrafficDay, rollUpTrafficHour } from './site-traffic.service';
import { isBotUserAgent, normalizePath, referrerHost } from './visitor';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';
// An address in Lagos (the server's geo data answers NG for it).
const LAGOS_IP = '102.89.1.1';

describe('website traffic', () => {
  let app: FastifyInstance;
  let admin: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
  });
  afterAll(async () => {
    resetClock();
    await app.close();
  });

  const beacon = (
    body: unknown,
    options: { ip?: string; ua?: string; headers?: Record<string, string> } = {},
  ) =>
    app.inject({
      method: 'POST',
      url: PAGE_VIEW_BEACON_PATH,
      remoteAddress: options.ip ?? LAGOS_IP,
      headers: {
        'content-type': 'application/json',
        origin: 'http://localhost:3000',
        'user-agent': options.ua ?? BROWSER,
        ...options.headers,
      },
      payload: JSON.stringify(body),
    });
  const viewsOf = (path: string) =>
    app.services.db.select().from(sitePageViews).where(eq(sitePageViews.path, path));
  const traffic = async (range = '24h') => {
    const response = await as(
      app,
      admin.cookie,
    )({ method: 'GET', url: `/api/admin/website-traffic?range=${range}` });
    expect(response.statusCode).toBe(200);
    return websiteTrafficSchema.parse(response.json());
  };

  it('records a page view without setting a cookie and without storing the address', async () => {
    const path = `/features/${randomUUID()}`;
    const response = await beacon({
      path: `${path}?email=ada@example.com#top`,
      referrer: 'https://www.Google.com/search?q=tambari',
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['set-cookie']).toBeUndefined();
    const rows = await viewsOf(path);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path, referrerHost: 'google.com', country: 'NG' });
    expect(rows[0]!.visitorHash).toMatch(/^[0-9a-f]{32}$/);
    // Nothing of the address, the user agent or the query string is kept in any column.
    const stored = JSON.stringify(rows[0]);
    for (const secret of [LAGOS_IP, '102.89', 'Chrome', 'ada@example.com'])
      expect(stored).not.toContain(secret);
    const columns = await app.services.db.execute(
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'site_page_views'`,
    );
    const names = (columns as unknown as { rows: { column_name: string }[] }).rows.map((r) => r.column_name);
    expect(names.some((n) => /ip|address|agent/.test(n))).toBe(false);
  });

  it('counts one visitor per person per day, and a new visitor hash the next day', async () => {
    const path = `/pricing/${randomUUID()}`;
    await beacon({ path });
    await beacon({ path });
    await beacon({ path }, { ua: PHONE });
    let rows = await viewsOf(path);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.visitorHash)).size).toBe(2);
    const firstDayHash = rows[0]!.visitorHash;

    advanceClock(86_400_000);
    try {
      await beacon({ path });
      rows = await viewsOf(path);
      expect(rows).toHaveLength(4);
      expect(rows.at(-1)!.visitorHash).not.toBe(firstDayHash);
      // The previous day's salt is gone: its hashes can no longer be recomputed.
      const salts = await app.services.db.select().from(siteTrafficSalts);
      expect(salts).toHaveLength(1);
    } finally {
      resetClock();
    }
  });

  it('ignores bots, Do Not Track and Global Privacy Control, and answers them the same', async () => {
    const path = `/about/${randomUUID()}`;
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36',
      'curl/8.5.0',
      '',
    ]) {
      expect((await beacon({ path }, { ua })).statusCode).toBe(204);
    }
    expect((await beacon({ path }, { headers: { dnt: '1' } })).statusCode).toBe(204);
    expect((await beacon({ path }, { headers: { 'sec-gpc': '1' } })).statusCode).toBe(204);
    expect(await viewsOf(path)).toHaveLength(0);
  });

  it('refuses what is not a beacon: bad bodies and oversized ones', async () => {
    expect((await beacon({ path: 'no-slash' })).statusCode).toBe(400);
    expect((await beacon({})).statusCode).toBe(400);
    const huge = await beacon({ path: '/', referrer: 'x'.repeat(10_000) });
    expect(huge.statusCode).toBe(413);
  });

  it('rate-limits one address', async () => {
    const ip = '102.89.7.7';
    const statuses: number[] = [];
    for (let i = 0; i < 65; i++) statuses.push((await beacon({ path: '/status' }, { ip })).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('shows views, visitors, pages, referrers, countries and the sign-up funnel', async () => {
    const before = await traffic();
    const path = `/global-database/${randomUUID()}`;
    await beacon({ path, referrer: 'https://news.ycombinator.com/item?id=1' }, { ip: '8.8.8.8' });
    await beacon({ path, referrer: 'http://localhost:3000/' }, { ip: '8.8.8.8' });
    await beacon({ path: '/auth' }, { ip: '8.8.4.4' });
    await createUser(app);
    const after = await traffic();
    expect(after.views - before.views).toBe(3);
    expect(after.visitors - before.visitors).toBe(2);
    expect(after.topPages.find((p) => p.path === path)).toMatchObject({ views: 2, visitors: 1 });
    // The site's own address is not a referrer.
    expect(after.referrers.find((r) => r.host === 'news.ycombinator.com')?.views).toBeGreaterThanOrEqual(1);
    expect(after.referrers.some((r) => r.host === 'localhost')).toBe(false);
    expect(after.countries.find((c) => c.country === 'US')?.views).toBeGreaterThanOrEqual(2);
    expect(after.signUp.visitors - before.signUp.visitors).toBe(1);
    expect(after.signUp.accountsCreated - before.signUp.accountsCreated).toBe(1);
    expect(after.signUp.conversionRate).not.toBeNull();
    expect(after.series).toHaveLength(25);
    expect(after.series.reduce((sum, b) => sum + b.views, 0)).toBe(after.views);
    const month = await traffic('30d');
    expect(month.series).toHaveLength(30);
    expect(month.views).toBeGreaterThanOrEqual(after.views);
  });

  it('reads finished days from the daily roll-up, and the hourly job re-rolls a day a late beacon reached', async () => {
    const path = `/business-leads/${randomUUID()}`;
    const noon = new Date(`${new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`);
    const view = (visitorHash: string) => ({ path, visitorHash, occurredAt: noon, country: 'GH' });
    await app.services.db
      .insert(sitePageViews)
      .values([view('a'.repeat(32)), view('a'.repeat(32)), view('c'.repeat(32))]);
    // As if no job had run since: the screen rolls up the finished days it misses by itself.
    await app.services.db.execute(
      sql`DELETE FROM site_traffic_daily WHERE day = ${noon.toISOString().slice(0, 10)}::date`,
    );
    const week = await traffic('7d');
    expect(week.series).toHaveLength(7);
    expect(week.topPages.find((p) => p.path === path)).toMatchObject({ views: 3, visitors: 2 });
    const bucket = week.series.find((b) => b.at.startsWith(noon.toISOString().slice(0, 10)));
    expect(bucket?.views).toBeGreaterThanOrEqual(3);

    await app.services.db.insert(sitePageViews).values(view('d'.repeat(32)));
    expect((await traffic('7d')).topPages.find((p) => p.path === path)?.views).toBe(3);
    await rollUpSiteTraffic({ db: app.services.db });
    await rollUpTrafficDay({ db: app.services.db, day: noon.toISOString().slice(0, 10) });
    const again = await traffic('30d');
    expect(again.topPages.find((p) => p.path === path)).toMatchObject({ views: 4, visitors: 3 });
    expect(again.countries.find((c) => c.country === 'GH')?.views).toBeGreaterThanOrEqual(4);
  });

  it('reads the last 24 hours and today from the hourly roll-up, and its figures are those of the raw page views', async () => {
    const { db } = app.services;
    const tag = randomUUID().slice(0, 8);
    const paths = [`/hourly-a/${tag}`, `/hourly-b/${tag}`, `/hourly-c/${tag}`];
    const at = Date.now();
    // Views every 23 minutes over the last 26 hours, by 12 visitors a day who come back in other hours
    // and to other pages; a visitor's hash is of its day, as the beacon makes them.
    const rows = Array.from({ length: 70 }, (_, i) => {
      const occurredAt = new Date(at - 60_000 - i * 23 * 60_000);
      const day = occurredAt.toISOString().slice(0, 10);
      return {
        path: paths[i % 3]!,
        referrerHost: i % 4 === 0 ? `hourly-${tag}.example` : null,
        country: i % 5 === 0 ? 'GH' : 'KE',
        visitorHash: `${tag}-${day}-${i % 12}`,
        occurredAt,
      };
    });
    await db.insert(sitePageViews).values(rows);
    // What the hourly job and the day's roll-up write for the hours these views landed in.
    const today = new Date(at).toISOString().slice(0, 10);
    for (const day of new Set(rows.map((r) => r.occurredAt.toISOString().slice(0, 10)))) {
      if (day !== today) await rollUpTrafficDay({ db, day });
    }
    const midnight = Date.parse(`${today}T00:00:00Z`);
    for (let hour = midnight; hour + 3_600_000 <= at; hour += 3_600_000) {
      await rollUpTrafficHour({ db, hour: new Date(hour) });
    }

    const raw = async (from: string, until: string, perDay: boolean) => {
      const result = await db.execute(sql`
        SELECT path, sum(views)::int AS views, sum(visitors)::int AS visitors FROM (
          SELECT path, count(*) AS views, count(DISTINCT visitor_hash) AS visitors FROM site_page_views
          WHERE occurred_at >= ${from}::timestamptz AND occurred_at <= ${until}::timestamptz
          GROUP BY path, ${perDay ? sql`(occurred_at AT TIME ZONE 'UTC')::date` : sql`1`}
          UNION ALL
          SELECT '', count(*), count(DISTINCT visitor_hash) FROM site_page_views
          WHERE occurred_at >= ${from}::timestamptz AND occurred_at <= ${until}::timestamptz
          GROUP BY ${perDay ? sql`(occurred_at AT TIME ZONE 'UTC')::date` : sql`1`}
        ) s GROUP BY path`);
      return new Map(
        (result as unknown as { rows: { path: string; views: number; visitors: number }[] }).rows.map((r) => [
          r.path,
          { views: r.views, visitors: r.visitors },
        ]),
      );
    };
    for (const range of ['24h', '7d'] as const) {
      const figures = await traffic(range);
      // Visitor hashes are of one day: counted distinct in the whole window for 24 h, per day for 7 days.
      const expected = await raw(figures.since, figures.generatedAt, range === '7d');
      expect({ views: figures.views, visitors: figures.visitors }).toEqual(expected.get(''));
      for (const path of paths) {
        const page = figures.topPages.find((p) => p.path === path);
        expect({ views: page?.views, visitors: page?.visitors }).toEqual(expected.get(path));
      }
      expect(figures.series.reduce((sum, b) => sum + b.views, 0)).toBe(figures.views);
      expect(figures.series.reduce((sum, b) => sum + b.visitors, 0)).toBeGreaterThanOrEqual(figures.visitors);
    }
    const day = await traffic('24h');
    expect(Date.parse(day.since)).toBe(Math.floor(at / 3_600_000) * 3_600_000 - 86_400_000);
    expect(day.referrers.find((r) => r.host === `hourly-${tag}.example`)?.views).toBe(
      rows.filter((r) => r.referrerHost && r.occurredAt.getTime() >= Date.parse(day.since)).length,
    );
  });

  it('is for super admins only', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/admin/website-traffic' })).statusCode).toBe(401);
    for (const role of ['user', 'data_entry'] as const) {
      const who = await createUser(app, { role });
      const response = await as(app, who.cookie)({ method: 'GET', url: '/api/admin/website-traffic' });
      expect(response.statusCode).toBe(403);
    }
  });

  it('the purge job deletes page views older than 90 days and keeps the rest', async () => {
    const path = `/docs/${randomUUID()}`;
    await app.services.db.insert(sitePageViews).values([
      { path, visitorHash: 'a'.repeat(32), occurredAt: new Date(Date.now() - 91 * 86_400_000) },
      { path, visitorHash: 'b'.repeat(32), occurredAt: new Date(Date.now() - 89 * 86_400_000) },
    ]);
    const result = await purgeSiteTraffic({ db: app.services.db });
    expect(result.views).toBeGreaterThanOrEqual(1);
    const left = await viewsOf(path);
    expect(left.map((r) => r.visitorHash)).toEqual(['b'.repeat(32)]);
  });
});

describe('visitor rules', () => {
  it('knows crawlers and scripts from browsers', () => {
    expect(isBotUserAgent(BROWSER)).toBe(false);
    expect(isBotUserAgent(PHONE)).toBe(false);
    expect(isBotUserAgent('Mozilla/5.0 (compatible; bingbot/2.0)')).toBe(true);
    expect(isBotUserAgent('facebookexternalhit/1.1')).toBe(true);
    expect(isBotUserAgent('python-requests/2.31')).toBe(true);
    expect(isBotUserAgent(undefined)).toBe(true);
  });

  it('keeps the path alone and the outside referrer host alone', () => {
    expect(normalizePath('/auth?email=a@b.c&plan=pro')).toBe('/auth');
    expect(normalizePath('/pricing/')).toBe('/pricing');
    expect(normalizePath('/')).toBe('/');
    expect(referrerHost('https://www.tambari.ng/pricing', ['tambari.ng'])).toBeNull();
    expect(referrerHost('https://l.facebook.com/x?u=1', ['tambari.ng'])).toBe('l.facebook.com');
    expect(referrerHost('javascript:alert(1)', ['tambari.ng'])).toBeNull();
    expect(referrerHost('', ['tambari.ng'])).toBeNull();
  });
});
