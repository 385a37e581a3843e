import { PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../db/client';
import { JOBS } from './registry';

export type Queue = PgBoss;

export interface CreateQueueOptions {
  database: DatabaseHandle;
  /** postgres://… when the database is a server: pg-boss then owns a small pool (and LISTEN/NOTIFY). */
  url?: string;
  /** A web-only process sends jobs; it does not supervise queues or run cron schedules. */
  runsWorkers: boolean;
}

/**
 * pg-boss on the application's own database. On PGlite it goes through our single connection (the
 * adapter in db/client.ts), because only one process may open the data directory.
 */
export async function startQueue(options: CreateQueueOptions): Promise<Queue> {
  const shared = { schema: 'pgboss', supervise: options.runsWorkers, schedule: options.runsWorkers };
  const boss =
    options.database.kind === 'pglite' || !options.url
      ? new PgBoss({ ...shared, db: options.database, backend: options.database.kind })
      : new PgBoss({ ...shared, connectionString: options.url, max: 4, application_name: 'tambari-queue' });
  boss.on('error', () => {
    // Surfaced through the health check; pg-boss retries its own maintenance on the next tick.
  });
  await boss.start();
  // A queue's policy is fixed when pg-boss first creates it (definitions' `queue` option).
  for (const job of JOBS) await boss.createQueue(job.name, job.queue);
  return boss;
}
