import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { recordWorkerHeartbeat } from '../server/features/admin-operations/alerting.service';
import { WORKER_HEARTBEAT_MS } from '../server/features/admin-operations/evaluate-alert-rules.job';
import { createImapIdleManager, type ImapIdleManager } from '../server/features/inbound/imap-idle';
import { enqueueIdleTriggeredPoll } from '../server/features/inbound/poll-sender-mailbox.job';
import { pausedJobNames } from '../server/features/schedules/schedules.service';
import { openImapClient } from '../server/features/sender-accounts/sender-transport';
import { concurrencyOf, type JobServices } from '../server/jobs/define-job';
import { workQueue } from '../server/jobs/queue';
import { JOBS } from '../server/jobs/registry';

type JobLike = { id: string; name: string; data?: unknown; signal: AbortSignal };

/**
 * queue.work with the job's own logger (job name and id on every line) and its failure logged there:
 * pg-boss records a thrown error on the job row but says nothing, and a failing schedule would be silent.
 */
export function logged(
  log: FastifyBaseLogger,
  handle: (job: JobLike, jobLog: FastifyBaseLogger) => Promise<void>,
): (jobs: JobLike[]) => Promise<void> {
  return async (jobs) => {
    for (const job of jobs) {
      const jobLog = log.child({ jobId: job.id, job: job.name });
      try {
        await handle(job, jobLog);
      } catch (error) {
        jobLog.error({ err: error }, 'job failed');
        throw error;
      }
    }
  };
}

/**
 * Registers every job of the registry on this process's queue (its handler wrapped in `logged`), then its
 * cron schedules. Answers a cleanup for shutdown.
 */
export async function registerWorkers(
  services: JobServices,
  log: FastifyBaseLogger,
): Promise<{ closeIdle(): Promise<void>; close(): void }> {
  const { queue } = services;
  const stops: (() => void)[] = [];
  for (const job of JOBS) {
    const state = job.start?.(services, log);
    if (job.stop) stops.push(() => job.stop?.(state));
    const localConcurrency = concurrencyOf(job, services.env);
    const handler = logged(log, (pgJob, jobLog) =>
      job.run({
        services,
        log: jobLog,
        payload: job.payload.parse(pgJob.data ?? {}),
        signal: pgJob.signal,
        state,
      }),
    );
    const concurrency = localConcurrency === undefined ? {} : { localConcurrency };
    await workQueue(queue, job.name, concurrency, handler);
  }
  await scheduleJobs(services);
  const idle = startImapIdle(services, log);
  const heartbeat = startHeartbeat(services, log);
  return {
    closeIdle: async () => {
      await idle?.close();
    },
    close: () => {
      clearInterval(heartbeat);
      for (const stop of stops) stop();
    },
  };
}

/** This process's sign of life every 30 s, for the "worker not seen" alert rule. */
function startHeartbeat(services: JobServices, log: FastifyBaseLogger): NodeJS.Timeout {
  const identity = {
    id: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    hostname: hostname(),
    pid: process.pid,
    startedAt: new Date(),
  };
  const beat = () =>
    recordWorkerHeartbeat({ db: services.db, ...identity }).catch((error: unknown) =>
      log.warn({ err: error }, 'worker heartbeat could not be recorded'),
    );
  void beat();
  const timer = setInterval(beat, WORKER_HEARTBEAT_MS);
  timer.unref();
  return timer;
}

/**
 * Puts each cron of the registry on pg-boss's schedule table, except those an operator paused: a paused
 * one is taken off it, should it be there, so it does not run on its cron until resumed.
 */
export async function scheduleJobs(services: Pick<JobServices, 'db' | 'queue'>): Promise<void> {
  const paused = await pausedJobNames({ db: services.db });
  for (const job of JOBS) {
    if (!job.cron) continue;
    if (paused.has(job.name)) await services.queue.unschedule(job.name);
    else await services.queue.schedule(job.name, job.cron, {});
  }
}

/** IMAP IDLE connections of this process (features/inbound/imap-idle.ts); none without IMAP_IDLE_CONNECTIONS. */
function startImapIdle(services: JobServices, log: FastifyBaseLogger): ImapIdleManager | null {
  const { env, secrets, queue } = services;
  if (env.IMAP_IDLE_CONNECTIONS === 0) return null;
  const manager = createImapIdleManager({
    db: services.db,
    log,
    owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    maxConnections: env.IMAP_IDLE_CONNECTIONS,
    openImapClient: (account) =>
      openImapClient({ account, encryptionKey: secrets.encryptionKey, network: env.SENDER_NETWORK }),
    onNewMail: (senderAccountId) => enqueueIdleTriggeredPoll({ queue, senderAccountId }),
  });
  manager.start();
  return manager;
}
