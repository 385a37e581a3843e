// The Logs screen at its bound: seeds N log lines (default 1,000,000) spread over the last 7 days, then
// runs 300 searches of the kinds the screen offers (newest page, level, time range, request id, user,
// route, job, words, and combinations) through the same service the API uses, timing each.
// Goal: p95 ≤ 200 ms per screen.
import { searchLogs } from '@server/features/admin-operations/logs.service';
import { logQuerySchema } from '@shared/admin-operations';
import { sql } from 'drizzle-orm';
import { type BenchDb, latencyStats, openBenchDatabase, percentile, scalar } from './support';

const SEARCHES = 300;
const USERS = 2_000;
const ROUTES = [
  '/api/user',
  '/api/campaigns',
  '/api/campaigns/:id',
  '/api/campaigns/:id/steps',
  '/api/leads/search',
  '/api/leads/count',
  '/api/lists',
  '/api/lists/:id/contacts',
  '/api/sender-accounts',
  '/api/templates',
  '/api/admin/users',
  '/api/imports',
  '/t/o/:file',
  '/t/c/:token/:index',
  '/u/:token',
];
const JOBS = ['dispatch-outbox', 'poll-sender-mailbox', 'advance-campaign-sequences', 'import-contacts'];
const MESSAGES = [
  'incoming request',
  'request completed',
  'job failed',
  'message deferred by the receiving server',
  'connection timeout while polling the mailbox',
  'campaign step queued',
  'sender account paused after repeated failures',
  'import finished',
];

type Kind =
  | 'newest'
  | 'level_error'
  | 'level_warn_last_hour'
  | 'request_id'
  | 'user'
  | 'route'
  | 'job'
  | 'words_rare'
  | 'words_and_level'
  | 'day_ago_range';

export async function run(options: { db: BenchDb; count?: number }) {
  const count = options.count ?? 1_000_000;
  const bench = await openBenchDatabase(options.db);
  const { database } = bench;
  try {
    process.stdout.write(`seeding ${count.toLocaleString('en-US')} log lines on ${options.db}…\n`);
    const seedStart = performance.now();
    const routes = `ARRAY[${ROUTES.map((r) => `'${r}'`).join(',')}]`;
    const jobs = `ARRAY[${JOBS.map((j) => `'${j}'`).join(',')}]`;
    const messages = `ARRAY[${MESSAGES.map((m) => `'${m}'`).join(',')}]`;
    // 85% info, 8% warn, 5% error, 2% debug; two lines per request; a fifth of the lines from jobs.
    const slice = 100_000;
    for (let from = 0; from < count; from += slice) {
      const to = Math.min(count, from + slice) - 1;
      await database.db.execute(
        sql.raw(`
        INSERT INTO app_logs (time, level, process, msg, request_id, user_id, method, route, status_code, job, job_id, data)
        SELECT now() - (random() * interval '7 days'),
          CASE WHEN r < 0.85 THEN 30 WHEN r < 0.93 THEN 40 WHEN r < 0.98 THEN 50 ELSE 20 END,
          CASE WHEN i % 5 = 0 THEN 'worker' ELSE 'web' END,
          CASE WHEN i % 997 = 0 THEN 'smtp handshake refused by relay.example.net' ELSE (${messages})[1 + (i % ${MESSAGES.length})] END,
          CASE WHEN i % 5 = 0 THEN NULL ELSE 'req-' || (i / 2) END,
          CASE WHEN i % 3 = 0 THEN NULL ELSE 'user-' || (i % ${USERS}) END,
          CASE WHEN i % 5 = 0 THEN NULL ELSE 'GET' END,
          CASE WHEN i % 5 = 0 THEN NULL ELSE (${routes})[1 + (i % ${ROUTES.length})] END,
          CASE WHEN i % 5 = 0 THEN NULL ELSE 200 END,
          CASE WHEN i % 5 = 0 THEN (${jobs})[1 + (i % ${JOBS.length})] END,
          CASE WHEN i % 5 = 0 THEN 'job-' || i END,
          jsonb_build_object('responseTime', round((random() * 50)::numeric, 2))
        FROM (SELECT i, random() AS r FROM generate_series(${from}, ${to}) AS i) s`),
      );
    }
    await database.db.execute(sql`ANALYZE app_logs`);
    const seedMs = performance.now() - seedStart;
    const rows = await scalar(database, sql`SELECT count(*) FROM app_logs`);
    process.stdout.write(`seeded ${rows.toLocaleString('en-US')} lines in ${(seedMs / 1000).toFixed(1)} s\n`);

    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    const dayAgoEnd = new Date(Date.now() - 86_400_000 + 3 * 3_600_000).toISOString();
    const kinds: Kind[] = [
      'newest',
      'level_error',
      'level_warn_last_hour',
      'request_id',
      'user',
      'route',
      'job',
      'words_rare',
      'words_and_level',
      'day_ago_range',
    ];
    const queryOf = (kind: Kind, i: number): Record<string, string> => {
      switch (kind) {
        case 'newest':
          return {};
        case 'level_error':
          return { level: 'error' };
        case 'level_warn_last_hour':
          return { level: 'warn', from: hourAgo };
        case 'request_id':
          return { requestId: `req-${(i * 7919) % Math.floor(count / 2)}` };
        case 'user':
          return { user: `user-${(i * 31) % USERS}` };
        case 'route':
          return { route: ROUTES[i % ROUTES.length]!.split('/')[2] ?? 'campaigns' };
        case 'job':
          return { job: JOBS[i % JOBS.length]! };
        case 'words_rare':
          return { q: 'handshake refused' };
        case 'words_and_level':
          return { q: 'timeout', level: 'warn' };
        case 'day_ago_range':
          return { from: dayAgo, to: dayAgoEnd };
      }
    };
    const sink = { written: 0, dropped: 0, queued: 0, failedInserts: 0, lastError: null };
    const byKind = new Map<Kind, number[]>();
    const all: number[] = [];
    // Warm the caches once per kind, as a screen that is open refreshes its query.
    for (const kind of kinds) {
      await searchLogs({
        db: database.db,
        query: logQuerySchema.parse(queryOf(kind, 0)),
        maxRows: count,
        retentionDays: 14,
        sink,
      });
    }
    for (let i = 0; i < SEARCHES; i++) {
      const kind = kinds[i % kinds.length]!;
      const query = logQuerySchema.parse(queryOf(kind, i));
      const t0 = performance.now();
      await searchLogs({ db: database.db, query, maxRows: count, retentionDays: 14, sink });
      const ms = performance.now() - t0;
      all.push(ms);
      byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
    }
    const overall = latencyStats(all);
    const perKind: Record<string, number> = {};
    for (const [kind, timings] of byKind) {
      timings.sort((a, b) => a - b);
      perKind[`${kind}_p95_ms`] = latencyStats(timings).p95;
      process.stdout.write(
        `${kind.padEnd(22)} p50 ${percentile(timings, 50).toFixed(1)} ms  p95 ${percentile(timings, 95).toFixed(1)} ms\n`,
      );
    }
    return {
      bench: 'log-search',
      db: options.db,
      rows,
      searches: SEARCHES,
      p50_ms: overall.p50,
      p95_ms: overall.p95,
      max_ms: overall.max,
      ...perKind,
    };
  } finally {
    await bench.close();
  }
}
