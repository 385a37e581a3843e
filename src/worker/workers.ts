import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../server/app';
import { purgeExpiredSessionsJob } from '../server/jobs/purge-expired-sessions.job';
import { handlePurgeExpiredSessions } from './handlers/purge-expired-sessions.handler';

export type WorkerServices = Pick<Services, 'db' | 'queue'>;

/** Registers every job handler and cron schedule on this process's queue. */
export async function registerWorkers(services: WorkerServices, log: FastifyBaseLogger): Promise<void> {
  const { queue } = services;
  await queue.work(purgeExpiredSessionsJob.name, async (jobs) => {
    for (const job of jobs) {
      const jobLog = log.child({ jobId: job.id, job: job.name });
      await handlePurgeExpiredSessions({
        services,
        log: jobLog,
        payload: purgeExpiredSessionsJob.payload.parse(job.data ?? {}),
      });
    }
  });
  await queue.schedule(purgeExpiredSessionsJob.name, purgeExpiredSessionsJob.cron, {});
}
