// The end of a newsletter send at scale: a newsletter 'sending' whose engine campaign has N campaign
// contacts (default 1,000,000, --count), all queued and sent (nothing queued or in flight), as
// newsletter-million leaves one after its last message was accepted. Then one run of
// finishNewsletterSends (what the send-scheduled-newsletters job does every minute) moves it to 'sent':
// its wall time, and per statement (pg_stat_statements of this database, when the server loads it) the
// calls, time, longest single call (how long a statement holds its contacts' row locks) and WAL bytes;
// the rows written of campaign_contacts (pg_stat_user_tables). The contacts carry names, a city, a
// country, a time zone and two custom fields, as an imported list's do. The time from the last message
// accepted to 'sent' is this plus the wait for the job's next minute.
// The heap and index sizes of campaign_contacts before and after show what the fillfactor costs on disk.
// BENCH_FINISHERS=N (default 1): N runs of the finish at once on the same send, as the workers' finish
// jobs and the per-minute schedule reach it together; `finish_ms` and the CPU are then all of theirs.
// `npm run bench -- newsletter-finish --db postgres [--count N]`.
import { finishNewsletterSends } from '@server/features/newsletters/newsletter-send.service';
import { sql } from 'drizzle-orm';
import { type BenchDb, openBenchDatabase, postgresBackendsCpuClock, rowsOf, say, timedStep } from './support';

const USER = 'bench-finish-user';
const CAMPAIGN = '00000000-0000-4000-8000-00000000f1a1';

export async function run(options: { db: BenchDb; count?: number }) {
  const total = options.count ?? 1_000_000;
  const finishers = Number(process.env.BENCH_FINISHERS ?? 1);
  const bench = await openBenchDatabase(options.db);
  const { database } = bench;
  const { db } = database;
  try {
    await timedStep(`${total.toLocaleString('en-US')} campaign contacts`, async () => {
      await db.execute(sql`
        INSERT INTO "user" (id, name, email, created_at, updated_at, first_name)
        VALUES (${USER}, 'Bench', 'bench-finish@tambari.test', now(), now(), 'Bench')`);
      await db.execute(sql`
        INSERT INTO campaigns (id, user_id, name, kind, status, started_at)
        VALUES (${CAMPAIGN}::uuid, ${USER}, 'Newsletter', 'newsletter', 'active', now())`);
      await db.execute(sql`
        INSERT INTO newsletters (user_id, name, kind, subject, status, campaign_id, web_token, sent_at)
        VALUES (${USER}, 'Newsletter', 'newsletter', 'Hello', 'sending', ${CAMPAIGN}::uuid, 'bench-finish-token', now())`);
      const step = 250_000;
      for (let first = 0; first < total; first += step) {
        const last = Math.min(total, first + step) - 1;
        await db.execute(sql`
          INSERT INTO campaign_contacts (campaign_id, user_id, email, first_name, last_name, company, city,
            country_code, time_zone, fields, current_step, created_at, updated_at)
          SELECT ${CAMPAIGN}::uuid, ${USER}, 'Reader.' || g || '@example.com', 'First' || g, 'Last' || g,
            'Company ' || (g % 997), 'Lagos', 'NG', 'Africa/Lagos',
            jsonb_build_object('plan', 'gold', 'member_since', '2024-0' || (1 + g % 9)), 1,
            now() - interval '1 hour', now() - interval '1 hour'
          FROM generate_series(${first}::int, ${last}::int) g`);
      }
    });
    await timedStep('vacuum analyze', () => db.execute(sql`VACUUM ANALYZE campaign_contacts`));

    const statements = database.kind === 'postgres' ? await statementStatsAvailable(database) : false;
    if (statements) {
      await db.execute(
        sql`SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)`,
      );
    }
    await db.execute(sql`SELECT pg_stat_clear_snapshot()`);
    const sizeBefore = await contactSizes(database);
    const before = await contactWrites(database);
    const cpu = await postgresBackendsCpuClock(database);
    const cpuBefore = cpu?.() ?? 0;
    const started = performance.now();
    const runs = await Promise.all(Array.from({ length: finishers }, () => finishNewsletterSends({ db })));
    const finished = runs.reduce((sum, n) => sum + n, 0);
    const ms = performance.now() - started;
    const postgresCpuMs = cpu ? (cpu() - cpuBefore) / 1e6 : null;
    if (finished !== 1) throw new Error(`finishNewsletterSends finished ${finished} sends, not 1`);
    const [state] = rowsOf<{ newsletter: string; campaign: string; active: number; completed: number }>(
      await db.execute(sql`
        SELECT (SELECT status FROM newsletters WHERE campaign_id = ${CAMPAIGN}::uuid) AS newsletter,
          (SELECT status FROM campaigns WHERE id = ${CAMPAIGN}::uuid) AS campaign,
          count(*) FILTER (WHERE status = 'active')::int AS active,
          count(*) FILTER (WHERE status = 'completed')::int AS completed
        FROM campaign_contacts WHERE campaign_id = ${CAMPAIGN}::uuid`),
    );
    if (state?.newsletter !== 'sent' || state.active !== 0 || state.completed !== total) {
      throw new Error(`unexpected end state ${JSON.stringify(state)}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
    await db.execute(sql`SELECT pg_stat_clear_snapshot()`);
    const after = await contactWrites(database);
    const sizeAfter = await contactSizes(database);
    const top = statements ? await topStatements(database) : [];
    for (const s of top) {
      say(
        `${s.calls} calls, ${Math.round(s.ms)} ms (longest ${Math.round(s.max_ms)} ms), WAL ${Math.round(s.wal / 1024 / 1024)} MB: ${s.query.replace(/\s+/g, ' ').slice(0, 160)}`,
      );
    }
    const walBytes = top.reduce((sum, s) => sum + s.wal, 0);
    return {
      bench: 'newsletter-finish',
      db: options.db,
      recipients: total,
      finishers,
      finish_ms: Math.round(ms),
      postgres_cpu_ms: postgresCpuMs === null ? null : Math.round(postgresCpuMs),
      longest_statement_ms: top.length ? Math.round(Math.max(...top.map((s) => s.max_ms))) : null,
      statement_calls: top.reduce((sum, s) => sum + s.calls, 0),
      wal_mb: statements ? Math.round((walBytes / 1024 / 1024) * 10) / 10 : null,
      wal_bytes_per_recipient: statements ? Math.round(walBytes / total) : null,
      contact_rows_updated: after.upd - before.upd,
      contact_rows_hot_updated: after.hot - before.hot,
      heap_mb_before: sizeBefore.heap_mb,
      heap_mb_after: sizeAfter.heap_mb,
      index_mb_before: sizeBefore.index_mb,
      index_mb_after: sizeAfter.index_mb,
    };
  } finally {
    await bench.close();
  }
}

async function statementStatsAvailable(database: Awaited<ReturnType<typeof openBenchDatabase>>['database']) {
  try {
    await database.executeSql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await database.executeSql('SELECT 1 FROM pg_stat_statements LIMIT 1');
    return true;
  } catch {
    say('pg_stat_statements is not loaded: no per-statement figures');
    return false;
  }
}

async function contactWrites(database: Awaited<ReturnType<typeof openBenchDatabase>>['database']) {
  const { rows } = await database.executeSql(
    `SELECT n_tup_upd::float8 AS upd, n_tup_hot_upd::float8 AS hot FROM pg_stat_user_tables
     WHERE relname = 'campaign_contacts'`,
  );
  return (rows[0] as { upd: number; hot: number } | undefined) ?? { upd: 0, hot: 0 };
}

/** The table's heap and its indexes (MB): what the fillfactor costs on disk and what the updates add. */
async function contactSizes(database: Awaited<ReturnType<typeof openBenchDatabase>>['database']) {
  const { rows } = await database.executeSql(
    `SELECT round(pg_relation_size('campaign_contacts') / 1048576.0)::float8 AS heap_mb,
       round(pg_indexes_size('campaign_contacts') / 1048576.0)::float8 AS index_mb`,
  );
  return rows[0] as { heap_mb: number; index_mb: number };
}

async function topStatements(database: Awaited<ReturnType<typeof openBenchDatabase>>['database']) {
  const { rows } = await database.executeSql(
    `SELECT calls::float8 AS calls, total_exec_time AS ms, max_exec_time AS max_ms, wal_bytes::float8 AS wal, query
     FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND toplevel
       AND query NOT LIKE '%pg_stat%'
     ORDER BY total_exec_time DESC`,
  );
  return rows as unknown as { calls: number; ms: number; max_ms: number; wal: number; query: string }[];
}
