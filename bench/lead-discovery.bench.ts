// Lead discovery at scale: seeds N synthetic directory contacts (default 1,000,000), then runs 200 random
// filter combinations (country, city, category, keyword, flags, sort) through the API as a premium user,
// each timing GET /api/leads/count and the first page of GET /api/leads/search sent together.
// Goals: p95 ≤ 50 ms at 10,000,000 on PostgreSQL, ≤ 100 ms at 1,000,000 on PGlite; seeding 10,000,000 in
// ≤ 10 minutes. LEAD_BENCH_DATABASE_URL reuses (and keeps) an already seeded PostgreSQL database,
// LEAD_BENCH_PGLITE_DIR a PGlite data directory (created if missing, kept).
// Prints the 10 slowest combinations (with the count and first-page times of each).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@server/app';
import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { users } from '@server/db/schema/index';
import { parseEnv } from '@server/env';
import { ephemeralSecrets } from '@server/lib/secrets';
import { BRAND_WORDS, SEED_COUNTRIES } from '@server/seed/directory-data';
import { createRandom } from '@server/seed/directory-generator';
import { finishInterruptedSeed, seedDirectory } from '@server/seed/seed-directory';
import { BUSINESS_CATEGORIES } from '@shared/categories';
import { eq, sql } from 'drizzle-orm';
import { createBenchDatabase, percentile } from './support';

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

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const count = options.count ?? 1_000_000;
  const reuseUrl = options.db === 'postgres' ? process.env.LEAD_BENCH_DATABASE_URL : undefined;
  const bench = options.db === 'postgres' && !reuseUrl ? await createBenchDatabase() : null;
  const keptPgliteDir = options.db === 'pglite' ? process.env.LEAD_BENCH_PGLITE_DIR : undefined;
  const pgliteDir =
    options.db === 'pglite' && !keptPgliteDir ? mkdtempSync(path.join(tmpdir(), 'tambari-bench-')) : null;
  const database: DatabaseHandle = await openDatabase(
    options.db === 'postgres' ? { url: reuseUrl ?? bench!.url } : { dataDir: keptPgliteDir ?? pgliteDir! },
  );
  await database.migrate();
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

  const app = await buildApp({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DEV_MAILBOX_PORT: '0',
      AUTH_RATE_LIMIT_MAX: '1000000',
      LEADS_RATE_LIMIT_MAX: '1000000',
      ...(options.db === 'postgres' ? { DATABASE_URL: reuseUrl ?? bench!.url } : {}),
    }),
    secrets: ephemeralSecrets(),
    database,
    persistent: false,
  });
  const email = `bench-leads-${Date.now()}@tambari.test`;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { email, password: 'Bench-pass-2026', firstName: 'Bench' },
  });
  await app.services.db
    .update(users)
    .set({
      subscriptionPlan: 'enterprise',
      subscriptionStatus: 'active',
      subscriptionCurrentPeriodEnd: new Date(Date.now() + 86_400_000),
    })
    .where(eq(users.id, registered.json().id));
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: 'Bench-pass-2026' },
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;

  // Real cities with contacts, per country, for the city filter.
  const cityRows = (
    (await app.services.db.execute(
      sql`SELECT country_code, city FROM directory_facet_counts WHERE city <> '' AND total > 20 GROUP BY 1, 2`,
    )) as unknown as { rows: { country_code: string; city: string }[] }
  ).rows;
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
    if (i === 20) cpuNow = await cpuClock(app.services.db, options.db);
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

  const fmt = (list: number[]) =>
    `p50 ${percentile(list, 50).toFixed(1)} ms, p95 ${percentile(list, 95).toFixed(1)} ms, p99 ${percentile(list, 99).toFixed(1)} ms, max ${list.at(-1)!.toFixed(1)} ms`;
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
  await database.close();
  await bench?.drop();
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
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
async function cpuClock(
  db: DatabaseHandle['db'],
  kind: 'pglite' | 'postgres',
): Promise<(() => number) | null> {
  const processCpu = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  if (kind === 'pglite') return processCpu;
  const result = (await db.execute(
    sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
        UNION SELECT pg_backend_pid()`,
  )) as unknown as { rows: { pid: number }[] };
  const files = result.rows.map((row) => `/proc/${row.pid}/schedstat`);
  if (!files.every((file) => existsSync(file))) return null;
  // schedstat's first field: nanoseconds on a CPU.
  const backendsCpu = () =>
    files.reduce((sum, file) => {
      try {
        return sum + Number(readFileSync(file, 'utf8').split(' ')[0]) / 1e6;
      } catch {
        return sum; // a connection the pool closed
      }
    }, 0);
  return () => processCpu() + backendsCpu();
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

async function scalar(database: DatabaseHandle, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return Number(Object.values(result.rows[0] ?? {})[0] ?? 0);
}
