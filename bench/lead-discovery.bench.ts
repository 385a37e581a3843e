// Lead discovery at scale: seeds N synthetic directory contacts (default 1,000,000), then runs 200 random
// filter combinations (country, city, category, keyword, flags, sort) through the API as a premium user,
// each timing GET /api/leads/count and the first page of GET /api/leads/search sent together.
// Goals: p95 ≤ 50 ms at 10,000,000 on PostgreSQL, ≤ 100 ms at 1,000,000 on PGlite; seeding 10,000,000 in
// ≤ 10 minutes. LEAD_BENCH_DATABASE_URL reuses (and keeps) an already seeded PostgreSQL database,
// LEAD_BENCH_PGLITE_DIR a PGlite data directory (created if missing, kept).
// Prints the 10 slowest combinations (with the count and first-page times of each).
import type { DatabaseHandle } from '@server/db/client';
import { users } from '@server/db/schema/index';
import { BRAND_WORDS, SEED_COUNTRIES } from '@server/seed/directory-data';
import { createRandom } from '@server/seed/directory-generator';
import { finishInterruptedSeed, seedDirectory } from '@server/seed/seed-directory';
import { BUSINESS_CATEGORIES } from '@shared/categories';
import { eq, sql } from 'drizzle-orm';
import {
  type BenchDb,
  buildBenchApp,
  formatLatency,
  openBenchDatabase,
  percentile,
  postgresBackendsCpuClock,
  processCpuMs,
  rowsOf,
  scalar,
  signedInBenchUser,
  timed,
} from './support';

const COMBINATIONS = 200;
const KEYWORDS = [
  ...BRAND_WORDS.slice(0, 40),
  'haulage',
  'freight',
  'solar',
  'pharmacy',
  'okafor',
  'mensah',
  'adeyemi',
  'foods',
  'motors',
  'consult',
];

export async function run(options: { db: BenchDb; count?: number }) {
  const count = options.count ?? 1_000_000;
  const bench = await openBenchDatabase(options.db, {
    reuseUrlEnv: 'LEAD_BENCH_DATABASE_URL',
    reuseDirEnv: 'LEAD_BENCH_PGLITE_DIR',
  });
  const { database } = bench;
  // A reused database whose last seed stopped before its indexes were built would time the queries
  // without them.
  const finished = await finishInterruptedSeed(database);
  if (finished.length > 0)
    process.stdout.write(`built ${finished.length} indexes a previous seed left out\n`);

  const existing = await scalar(database, sql`SELECT count(*) FROM directory_contacts`);
  let seeding: Record<string, number> = {};
  if (existing < count) {
    process.stdout.write(
      `seeding ${(count - existing).toLocaleString('en-US')} directory contacts on ${options.db}…\n`,
    );
    let reported = 0;
    const seeded = await seedDirectory({
      database,
      count: count - existing,
      onProgress: (n) => {
        if (n - reported >= 200_000) {
          reported = n;
          process.stdout.write(`  ${n.toLocaleString('en-US')}\n`);
        }
      },
    });
    const rowsPerSecond = Math.round((seeded.inserted / seeded.ms) * 1000);
    const { copyMs, indexesMs, rollupMs, analyzeMs } = seeded.phases;
    process.stdout.write(
      `seeded in ${(seeded.ms / 1000).toFixed(1)} s (${rowsPerSecond} rows/s): COPY ${(copyMs / 1000).toFixed(1)} s, ` +
        `indexes ${(indexesMs / 1000).toFixed(1)} s, roll-up ${(rollupMs / 1000).toFixed(1)} s, ANALYZE ${(analyzeMs / 1000).toFixed(1)} s\n`,
    );
    seeding = {
      seeded: seeded.inserted,
      seed_s: Number((seeded.ms / 1000).toFixed(1)),
      seed_rows_per_s: rowsPerSecond,
    };
  } else {
    process.stdout.write(`reusing ${existing.toLocaleString('en-US')} directory contacts\n`);
  }
  const contacts = await scalar(database, sql`SELECT count(*) FROM directory_contacts`);

  const app = await buildBenchApp({ ...bench, env: { LEADS_RATE_LIMIT_MAX: '1000000' } });
  const { cookie } = await signedInBenchUser(app, `bench-leads-${Date.now()}@tambari.test`, (id) =>
    app.services.db
      .update(users)
      .set({
        subscriptionPlan: 'enterprise',
        subscriptionStatus: 'active',
        subscriptionCurrentPeriodEnd: new Date(Date.now() + 86_400_000),
      })
      .where(eq(users.id, id)),
  );

  // Real cities with contacts, per country, for the city filter.
  const cityRows = rowsOf<{ country_code: string; city: string }>(
    await app.services.db.execute(
      sql`SELECT country_code, city FROM directory_facet_counts WHERE city <> '' AND total > 20 GROUP BY 1, 2`,
    ),
  );
  const citiesOf = new Map<string, string[]>();
  for (const row of cityRows)
    citiesOf.set(row.country_code, [...(citiesOf.get(row.country_code) ?? []), row.city]);

  const random = createRandom(42);
  const countries = SEED_COUNTRIES.map(([code]) => code);
  const categories = BUSINESS_CATEGORIES.map((c) => c.slug);
  const combos = Array.from({ length: COMBINATIONS + 20 }, () => {
    const params = new URLSearchParams();
    const roll = random.next();
    const country =
      roll < 0.7
        ? [random.pick(countries)]
        : roll < 0.8
          ? [random.pick(countries), random.pick(countries)]
          : [];
    for (const c of country) params.append('country', c);
    if (country.length === 1 && random.chance(0.35)) {
      const cities = citiesOf.get(country[0]!);
      if (cities?.length) params.append('city', random.pick(cities));
    }
    const categoryRoll = random.next();
    const category =
      categoryRoll < 0.6
        ? [random.pick(categories)]
        : categoryRoll < 0.7
          ? [random.pick(categories), random.pick(categories)]
          : [];
    for (const c of category) params.append('category', c);
    if (random.chance(0.25)) params.set('q', random.pick(KEYWORDS));
    if (random.chance(0.3)) params.set('verifiedOnly', 'true');
    if (random.chance(0.25)) params.set('hasPhone', 'true');
    if (random.chance(0.2)) params.set('hasWebsite', 'true');
    const sortRoll = random.next();
    const sort = sortRoll < 0.7 ? 'company_asc' : sortRoll < 0.85 ? 'company_desc' : 'newest';
    return { filters: params.toString(), sort };
  });

  const timings: number[] = [];
  const countTimings: number[] = [];
  const searchTimings: number[] = [];
  const cpuTimings: number[] = [];
  const slowest: { ms: number; countMs: number; pageMs: number; filters: string }[] = [];
  let cpuNow: (() => number) | null = null;
  for (const [i, combo] of combos.entries()) {
    if (i === 20) cpuNow = await cpuClock(database);
    const cpuStarted = cpuNow?.() ?? 0;
    const started = performance.now();
    const [counted, searched] = await Promise.all([
      timed(() =>
        app.inject({ method: 'GET', url: `/api/leads/count?${combo.filters}`, headers: { cookie } }),
      ),
      timed(() =>
        app.inject({
          method: 'GET',
          url: `/api/leads/search?${combo.filters}&sort=${combo.sort}&limit=25`,
          headers: { cookie },
        }),
      ),
    ]);
    const ms = performance.now() - started;
    if (counted.result.statusCode !== 200 || searched.result.statusCode !== 200) {
      throw new Error(
        `lead discovery answered ${counted.result.statusCode}/${searched.result.statusCode} for ${combo.filters}: ${searched.result.body}`,
      );
    }
    if (i < 20) continue; // warm-up
    if (cpuNow) cpuTimings.push(cpuNow() - cpuStarted);
    timings.push(ms);
    countTimings.push(counted.ms);
    searchTimings.push(searched.ms);
    slowest.push({
      ms,
      countMs: counted.ms,
      pageMs: searched.ms,
      filters: `${combo.filters}&sort=${combo.sort}`,
    });
  }
  for (const list of [timings, countTimings, searchTimings, cpuTimings]) list.sort((a, b) => a - b);
  slowest.sort((a, b) => b.ms - a.ms);

  const fmt = (list: number[]) => formatLatency(list, [50, 95, 99]);
  process.stdout.write(
    `${COMBINATIONS} filter combinations over ${contacts.toLocaleString('en-US')} contacts on ${options.db}\n` +
      `  count + first page: ${fmt(timings)}\n` +
      `  count alone:        ${fmt(countTimings)}\n` +
      `  first page alone:   ${fmt(searchTimings)}\n` +
      (cpuTimings.length
        ? `  CPU per combination (this process${options.db === 'postgres' ? ' + its PostgreSQL backends' : ''}): ${fmt(cpuTimings)}\n`
        : '') +
      `  slowest: ${slowest
        .slice(0, 10)
        .map(
          (s) =>
            `${s.ms.toFixed(0)} ms (count ${s.countMs.toFixed(0)}, page ${s.pageMs.toFixed(0)}) ${s.filters}`,
        )
        .join('\n           ')}\n`,
  );

  await app.close();
  await bench.close();
  return {
    bench: 'lead-discovery',
    db: options.db,
    contacts,
    p50_ms: Number(percentile(timings, 50).toFixed(2)),
    p95_ms: Number(percentile(timings, 95).toFixed(2)),
    p99_ms: Number(percentile(timings, 99).toFixed(2)),
    ...(cpuTimings.length ? { cpu_p95_ms: Number(percentile(cpuTimings, 95).toFixed(2)) } : {}),
    ...seeding,
  };
}

/**
 * CPU time spent so far (ms) by this process and, on PostgreSQL, by the server processes serving this
 * database: a figure the other work on a shared machine inflates much less than wall time. On a
 * machine of its own a combination takes about this long (less, as its count and page run side by
 * side). Linux only (/proc); null elsewhere.
 */
async function cpuClock(database: DatabaseHandle): Promise<(() => number) | null> {
  if (database.kind === 'pglite') return processCpuMs;
  const backendsNs = await postgresBackendsCpuClock(database);
  return backendsNs ? () => processCpuMs() + backendsNs() / 1e6 : null;
}
