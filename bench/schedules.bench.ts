// The Automated Schedules screen's read (listSchedules) against a full week of pg-boss job history:
// `npm run bench -- schedules --db postgres [--count N]`. N finished dispatch-outbox wake-ups (default
// 1,200,000: two a second for a week, the worst case pg-boss's 7-day retention keeps) plus a week of every
// minute-cron queue (10,080 jobs each), then the read timed 30 times. Compared in the same run against a
// bare count of the job table, the least any reader of that history pays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { listSchedules } from '@server/features/schedules/schedules.service';
import { startQueue } from '@server/jobs/queue';
import { JOBS } from '@server/jobs/registry';
import { sql } from 'drizzle-orm';
import { createBenchDatabase, percentile } from './support';

const WEEK_OF_MINUTES = 7 * 24 * 60;
const RUNS = 30;

async function fillHistory(database: DatabaseHandle, name: string, count: number): Promise<void> {
  // Finished jobs spread over the past week, one in 200 failed, as a worker leaves them.
  await database.executeSql(
    `INSERT INTO pgboss.job (id, name, data, state, created_on, start_after, started_on, completed_on, output)
     SELECT gen_random_uuid(), $1, '{}'::jsonb,
       (CASE WHEN g % 200 = 0 THEN 'failed' ELSE 'completed' END)::pgboss.job_state,
       t, t, t + interval '1 second', t + interval '1 second' + (g % 5000) * interval '1 millisecond',
       CASE WHEN g % 200 = 0 THEN '{"message":"connect ETIMEDOUT"}'::jsonb END
     FROM generate_series(1, $2::int) g,
       LATERAL (SELECT now() - interval '7 days' * g / $2::int AS t) s`,
    [name, count],
  );
}

function timings(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: Math.round(percentile(sorted, 50)), p95: Math.round(percentile(sorted, 95)) };
}

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const dispatchJobs = options.count ?? 1_200_000;
  const bench = options.db === 'postgres' ? await createBenchDatabase() : null;
  const dataDir = bench ? null : mkdtempSync(path.join(tmpdir(), 'tambari-schedules-bench-'));
  const database = await openDatabase(bench ? { url: bench.url, poolSize: 4 } : { dataDir: dataDir! });
  try {
    await database.migrate();
    const queue = await startQueue({ database, url: bench?.url, runsWorkers: false });
    const minutely = JOBS.filter((job) => job.cron === '* * * * *' && job.name !== 'dispatch-outbox');
    const fillStarted = performance.now();
    await fillHistory(database, 'dispatch-outbox', dispatchJobs);
    for (const job of minutely) await fillHistory(database, job.name, WEEK_OF_MINUTES);
    // As autovacuum leaves a table that stopped changing: statistics, and the visibility map that lets
    // the counts read the index alone.
    await database.executeSql('VACUUM ANALYZE pgboss.job');
    const totalJobs = dispatchJobs + minutely.length * WEEK_OF_MINUTES;
    process.stdout.write(
      `${totalJobs} finished jobs written in ${Math.round(performance.now() - fillStarted)} ms ` +
        `(${dispatchJobs} dispatch-outbox, ${WEEK_OF_MINUTES} in each of ${minutely.length} minute queues)\n`,
    );

    const read: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      const result = await listSchedules({ db: database.db, queue });
      read.push(performance.now() - t0);
      if (i === 0) {
        const dispatch = result.schedules.find((s) => s.name === 'dispatch-outbox');
        process.stdout.write(`dispatch-outbox: ${JSON.stringify(dispatch?.lastRun)}\n`);
      }
      t0 = performance.now();
      await database.db.execute(sql`SELECT count(*) FROM pgboss.job`);
      baseline.push(performance.now() - t0);
    }
    const ours = timings(read);
    const bare = timings(baseline);
    process.stdout.write(
      `listSchedules p50 ${ours.p50} ms, p95 ${ours.p95} ms; bare count p50 ${bare.p50} ms\n`,
    );
    await queue.stop({ graceful: false });
    return {
      bench: 'schedules',
      db: options.db,
      jobs: totalJobs,
      dispatch_jobs: dispatchJobs,
      read_p50_ms: ours.p50,
      read_p95_ms: ours.p95,
      count_p50_ms: bare.p50,
      ratio_vs_count: Number((ours.p50 / Math.max(1, bare.p50)).toFixed(2)),
    };
  } finally {
    await database.close();
    await bench?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
