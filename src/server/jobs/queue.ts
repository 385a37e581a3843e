import { type Job, type JobPollingOptions, PgBoss, type WorkOptions } from 'pg-boss';
import type { DatabaseHandle } from '../db/client';
import { JOBS } from './registry';
import { startWaker, type Waker } from './wake';

export type Queue = PgBoss;

export interface CreateQueueOptions {
  database: DatabaseHandle;
  /** postgres://… when the database is a server: pg-boss then owns a small pool (and LISTEN/NOTIFY). */
  url?: string;
  /** A web-only process sends jobs; it does not supervise queues or run cron schedules. */
  runsWorkers: boolean;
}

/**
 * How often a worker process asks which of its queues have a job due (wake.ts): one statement for all of
 * them. A job queued to run now wakes the workers at once (a NOTIFY, below); this is for what wakes no
 * one: a job queued to start later (a deferred dispatch, a retry's delay) and a notification lost with its
 * connection. It was each worker's own poll, one fetch per queue every 2 s.
 */
const DUE_SECONDS = 2;

/**
 * Each worker's own poll, now only a safety net behind the process's due check: a worker is woken by a
 * NOTIFY, by the due check, or after a batch when it would have polled before (wake.ts).
 */
const POLLING_SECONDS = 60;

/** The polling of `queue.work`, whatever pg-boss would relax it to when NOTIFY works. */
export function workerPolling(seconds = POLLING_SECONDS): JobPollingOptions {
  return { pollingIntervalSeconds: seconds, notifyPollingIntervalSeconds: seconds };
}

/**
 * pg-boss's own pool on PostgreSQL. It passes these options on to pg's Pool, which closes a connection idle
 * for 10 s by default: with one statement every 2 s, a burst (the minute's crons) opened connections that
 * closed and opened again each minute, a few ms of backend CPU each. An idle connection costs nothing.
 */
const QUEUE_POOL = { max: 4, application_name: 'tambari-queue', idleTimeoutMillis: 120_000 };

const wakers = new WeakMap<Queue, Waker>();

/**
 * `queue.work` with the long safety-net poll, its handler wrapped so that after a batch the worker asks
 * again when its old poll would have (a queue with a backlog keeps its pace).
 */
export async function workQueue<Data>(
  queue: Queue,
  name: string,
  options: Omit<WorkOptions, 'pollingIntervalSeconds' | 'notifyPollingIntervalSeconds'>,
  handler: (jobs: Job<Data>[]) => Promise<void>,
): Promise<string> {
  const waker = wakers.get(queue);
  return queue.work<Data>(name, { ...options, ...workerPolling() }, async (jobs) => {
    const startedAt = Date.now();
    try {
      await handler(jobs);
    } finally {
      waker?.ranBatch(name, startedAt);
    }
  });
}

/**
 * pg-boss on the application's own database. On PGlite it goes through our single connection (the
 * adapter in db/client.ts), because only one process may open the data directory.
 *
 * Every queue notifies: a job inserted to run now sends a NOTIFY in its own transaction (pg-boss's
 * queue option `notify`), and a process that runs workers LISTENs (`useListenNotify`) and wakes that
 * queue's idle workers, in this process or another. A web process only sends, so it does not listen.
 * A process that runs workers also wakes them for jobs no NOTIFY announces (wake.ts).
 */
export async function startQueue(options: CreateQueueOptions): Promise<Queue> {
  const shared = {
    schema: 'pgboss',
    supervise: options.runsWorkers,
    schedule: options.runsWorkers,
    useListenNotify: options.runsWorkers,
  };
  const boss =
    options.database.kind === 'pglite' || !options.url
      ? new PgBoss({ ...shared, db: options.database, backend: options.database.kind })
      : new PgBoss({ ...shared, ...QUEUE_POOL, connectionString: options.url });
  boss.on('error', () => {
    // Surfaced through the health check; pg-boss retries its own maintenance on the next tick.
  });
  await boss.start();
  // A queue's policy is fixed when pg-boss first creates it (definitions' `queue` option).
  for (const job of JOBS) await boss.createQueue(job.name, { ...job.queue, notify: true });
  await notifyOnEveryQueue(boss);
  await createRunHistoryIndex(options.database);
  if (options.runsWorkers)
    wakers.set(boss, startWaker(boss, { dueMs: DUE_SECONDS * 1000, schema: shared.schema }));
  return boss;
}

/** Queues created before they notified (createQueue leaves an existing queue as it is). */
async function notifyOnEveryQueue(boss: PgBoss): Promise<void> {
  const queues = await boss.getQueues(JOBS.map((job) => job.name));
  for (const queue of queues) if (!queue.notify) await boss.updateQueue(queue.name, { notify: true });
}

/**
 * An index of pg-boss's job table by queue and start time, for the Automated Schedules screen (a queue's
 * last run, its runs of the day): pg-boss indexes only jobs still waiting, and a queue's finished jobs
 * stay for its retention (a week: up to ~1,200,000 dispatch-outbox wake-ups). Built once, when the table
 * is still small on a new install; a web and a worker process starting together may both try, and the
 * loser's error changes nothing.
 */
async function createRunHistoryIndex(database: DatabaseHandle): Promise<void> {
  await database
    .executeSql(
      `CREATE INDEX IF NOT EXISTS job_run_history_idx ON pgboss.job (name, started_on DESC) INCLUDE (state)
       WHERE started_on IS NOT NULL`,
    )
    .catch(() => {});
}
