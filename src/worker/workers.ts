import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../server/app';
import { importContactsJob } from '../server/jobs/import-contacts.job';
import { purgeDeletedListsJob } from '../server/jobs/purge-deleted-lists.job';
import { purgeExpiredSessionsJob } from '../server/jobs/purge-expired-sessions.job';
import { purgeStaleImportsJob } from '../server/jobs/purge-stale-imports.job';
import { rebuildDirectoryFacetsJob } from '../server/jobs/rebuild-directory-facets.job';
import { renewSubscriptionsJob } from '../server/jobs/renew-subscriptions.job';
import { handleImportContacts } from './handlers/import-contacts.handler';
import { handlePurgeDeletedLists } from './handlers/purge-deleted-lists.handler';
import { handlePurgeExpiredSessions } from './handlers/purge-expired-sessions.handler';
import { handlePurgeStaleImports } from './handlers/purge-stale-imports.handler';
import { handleRebuildDirectoryFacets } from './handlers/rebuild-directory-facets.handler';
import { handleRenewSubscriptions } from './handlers/renew-subscriptions.handler';

export type WorkerServices = Pick<Services, 'db' | 'queue'> &
  Partial<Pick<Services, 'env' | 'mailer' | 'paystack' | 'database'>>;

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
  await queue.work(renewSubscriptionsJob.name, async (jobs) => {
    for (const job of jobs) {
      await handleRenewSubscriptions({
        services,
        log: log.child({ jobId: job.id, job: job.name }),
        payload: renewSubscriptionsJob.payload.parse(job.data ?? {}),
      });
    }
  });
  await queue.schedule(renewSubscriptionsJob.name, renewSubscriptionsJob.cron, {});
  await queue.work(importContactsJob.name, async (jobs) => {
    for (const job of jobs) {
      await handleImportContacts({
        services,
        log: log.child({ jobId: job.id, job: job.name }),
        payload: importContactsJob.payload.parse(job.data ?? {}),
        signal: job.signal,
      });
    }
  });
  for (const [definition, handle] of [
    [rebuildDirectoryFacetsJob, handleRebuildDirectoryFacets],
    [purgeDeletedListsJob, handlePurgeDeletedLists],
  ] as const) {
    await queue.work(definition.name, async (jobs) => {
      for (const job of jobs) {
        await handle({
          services,
          log: log.child({ jobId: job.id, job: job.name }),
          payload: definition.payload.parse(job.data ?? {}) as Record<string, never>,
        });
      }
    });
    await queue.schedule(definition.name, definition.cron, {});
  }
  await queue.work(purgeStaleImportsJob.name, async (jobs) => {
    for (const job of jobs) {
      await handlePurgeStaleImports({
        services,
        log: log.child({ jobId: job.id, job: job.name }),
        payload: purgeStaleImportsJob.payload.parse(job.data ?? {}),
      });
    }
  });
  await queue.schedule(purgeStaleImportsJob.name, purgeStaleImportsJob.cron, {});
}
