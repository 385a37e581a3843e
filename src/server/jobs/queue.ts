import { PgBoss, type Queue as QueueDefinition } from 'pg-boss';
import type { DatabaseHandle } from '../db/client';

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
  for (const job of JOB_NAMES) await boss.createQueue(job, QUEUE_OPTIONS[job]);
  return boss;
}

export const JOB_NAMES = [
  'purge-expired-sessions',
  'renew-subscriptions',
  'import-contacts',
  'purge-stale-imports',
  'rebuild-directory-facets',
  'purge-deleted-lists',
  'purge-deleted-account-events',
  'roll-up-platform-stats',
  // Sending engine (docs/sending.md)
  'dispatch-outbox',
  'recover-outbox-leases',
  'check-sender-domains',
  'poll-sender-mailboxes',
  'poll-sender-mailbox',
  'append-sent-folder',
  'append-sent-folders',
  // Campaigns (#5)
  'advance-campaign-sequences',
  'start-scheduled-campaigns',
  'send-campaign-test-run',
  // Newsletters and bulk emails (#5)
  'send-scheduled-newsletters',
  // The scraper (/admin/scraper)
  'run-scrape-job',
  // Email verification
  'verify-list',
  'recheck-greylisted',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

/**
 * Queues that are not plain FIFO. A policy is fixed when pg-boss first creates the queue.
 * poll-sender-mailbox: one queued-or-active job per singletonKey (the account), so polls of one mailbox
 * never overlap however often the fan-out runs.
 * append-sent-folder: see below.
 */
const QUEUE_OPTIONS: Partial<Record<JobName, Omit<QueueDefinition, 'name'>>> = {
  'poll-sender-mailbox': { policy: 'exclusive' },
  // One queued and one running per account (singletonKey): copies arriving while a job runs still get
  // a job after it, and two never APPEND the same rows at once.
  'append-sent-folder': { policy: 'stately' },
  // One slice of a crawl running and the next one queued (singletonKey: the crawl).
  'run-scrape-job': { policy: 'stately' },
};
