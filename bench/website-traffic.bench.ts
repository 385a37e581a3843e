// Website Traffic's read side: the admin screen's figures (finished days and hours from the roll-ups, the
// current hour from raw page views).
// `npm run bench -- website-traffic [--db postgres|pglite] [--count N]` (default 1,000,000 views in 30 days).
// TRAFFIC_BENCH_DATABASE_URL reuses a seeded PostgreSQL database (seeded on the first run, kept after).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { rollUpSiteTraffic } from '@server/features/site-traffic/roll-up-site-traffic.job';
import { getWebsiteTraffic } from '@server/features/site-traffic/site-traffic.service';
import { TRAFFIC_RANGES } from '@shared/site-traffic';
import { sql } from 'drizzle-orm';
import { createBenchDatabase, percentile } from './support';

const RUNS = 30;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const count = options.count ?? 1_000_000;
  const reuseUrl = options.db === 'postgres' ? process.env.TRAFFIC_BENCH_DATABASE_URL : undefined;
  const bench = options.db === 'postgres' && !reuseUrl ? await createBenchDatabase() : null;
  const pgliteDir = options.db === 'pglite' ? mkdtempSync(path.join(tmpdir(), 'tambari-bench-')) : null;
  const url = reuseUrl ?? bench?.url;
  const database: DatabaseHandle = await openDatabase(url ? { url } : { dataDir: pgliteDir! });
  try {
    await database.migrate();
    const seeded = rowsOf<{ n: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS n FROM site_page_views`),
    )[0]!.n;
    const seedStarted = performance.now();
    if (seeded < count) {
      process.stdout.write(
        `seeding ${count.toLocaleString('en-US')} page views over 30 days on ${options.db}…\n`,
      );
      // ~40 pages, 25 referrers, 30 countries, 4 views per daily visitor: a small site's shape, scaled up.
      await database.db.execute(sql`
      INSERT INTO site_page_views (occurred_at, path, referrer_host, country, visitor_hash)
      SELECT now() - (random() * interval '30 days'),
             '/page-' || (i % 40),
             CASE WHEN i % 3 = 0 THEN 'ref-' || (i % 25) || '.example' END,
             chr(65 + (i % 30) / 26) || chr(65 + (i % 26)),
             md5((i / 4)::text)
      FROM generate_series(1, ${count}) AS i`);
      await database.db.execute(sql`ANALYZE site_page_views`);
    } else {
      process.stdout.write(`reusing ${seeded.toLocaleString('en-US')} page views\n`);
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    // What the hourly job keeps done: every finished day rolled up (timed apart from the reads).
    const rollUpStarted = performance.now();
    await rollUpSiteTraffic({ db: database.db });
    const rollUpSeconds = (performance.now() - rollUpStarted) / 1000;
    process.stdout.write(`rolled up 30 days in ${rollUpSeconds.toFixed(1)} s\n`);

    // The current hour, which every range reads from raw rows: an hour's share of the views so far,
    // half of them by visitors already seen earlier in the day (the seed's hashes).
    const live = Math.round(count / (30 * 24));
    const inHour = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`SELECT count(*)::int AS n FROM site_page_views WHERE occurred_at >= date_trunc('hour', now())`,
      ),
    )[0]!.n;
    await database.db.execute(sql`
      INSERT INTO site_page_views (occurred_at, path, referrer_host, country, visitor_hash)
      SELECT now() - random() * (now() - date_trunc('hour', now())),
             '/page-' || (i % 40),
             CASE WHEN i % 3 = 0 THEN 'ref-' || (i % 25) || '.example' END,
             chr(65 + (i % 30) / 26) || chr(65 + (i % 26)),
             CASE WHEN i % 2 = 0 THEN md5((i * 97 / 4)::text) ELSE md5('live-' || i) END
      FROM generate_series(1, ${live - inHour}) AS i`);

    const figures: Record<string, number> = {};
    for (const range of TRAFFIC_RANGES) {
      const timings: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await getWebsiteTraffic({ db: database.db, range });
        timings.push(performance.now() - t0);
      }
      timings.sort((a, b) => a - b);
      const key = range.replace(/\W/g, '');
      figures[`p50_${key}_ms`] = Math.round(percentile(timings, 50));
      figures[`p95_${key}_ms`] = Math.round(percentile(timings, 95));
      process.stdout.write(
        `${range}: p50 ${figures[`p50_${key}_ms`]} ms, p95 ${figures[`p95_${key}_ms`]} ms\n`,
      );
    }
    return {
      bench: 'website-traffic',
      db: options.db,
      views: count,
      live_hour_views: live,
      seed_s: Math.round(seedSeconds),
      ...figures,
    };
  } finally {
    await database.close();
    await bench?.drop();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
}
