import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { createImapIdleManager, type ImapIdleManager } from '../server/features/inbound/imap-idle';
import { openImapClient } from '../server/features/sender-accounts/sender-transport';
import { advanceCampaignSequencesJob } from '../server/jobs/advance-campaign-sequences.job';
import { appendSentFolderJob, appendSentFoldersJob } from '../server/jobs/append-sent-folder.job';
import { checkSenderDomainsJob } from '../server/jobs/check-sender-domains.job';
import { dispatchOutboxJob } from '../server/jobs/dispatch-outbox.job';
import { importContactsJob } from '../server/jobs/import-contacts.job';
import { enqueueIdleTriggeredPoll, pollSenderMailboxJob } from '../server/jobs/poll-sender-mailbox.job';
import { pollSenderMailboxesJob } from '../server/jobs/poll-sender-mailboxes.job';
import { purgeDeletedAccountEventsJob } from '../server/jobs/purge-deleted-account-events.job';
import { purgeDeletedListsJob } from '../server/jobs/purge-deleted-lists.job';
import { purgeExpiredSessionsJob } from '../server/jobs/purge-expired-sessions.job';
import { purgeStaleImportsJob } from '../server/jobs/purge-stale-imports.job';
import { rebuildDirectoryFacetsJob } from '../server/jobs/rebuild-directory-facets.job';
import { recoverOutboxLeasesJob } from '../server/jobs/recover-outbox-leases.job';
import { renewSubscriptionsJob } from '../server/jobs/renew-subscriptions.job';
import { rollUpPlatformStatsJob } from '../server/jobs/roll-up-platform-stats.job';
import { runScrapeJobJob } from '../server/jobs/run-scrape-job.job';
import { sendCampaignTestRunJob } from '../server/jobs/send-campaign-test-run.job';
import { sendScheduledNewslettersJob } from '../server/jobs/send-scheduled-newsletters.job';
import { startScheduledCampaignsJob } from '../server/jobs/start-scheduled-campaigns.job';
import { recheckGreylistedJob, verifyListJob } from '../server/jobs/verify-list.job';
import { handleAdvanceCampaignSequences } from './handlers/advance-campaign-sequences.handler';
import { handleAppendSentFolder, handleAppendSentFolders } from './handlers/append-sent-folder.handler';
import { handleCheckSenderDomains } from './handlers/check-sender-domains.handler';
import {
  createDispatcher,
  handleDispatchOutbox,
  handleRecoverOutboxLeases,
} from './handlers/dispatch-outbox.handler';
import { handleImportContacts } from './handlers/import-contacts.handler';
import { handlePollSenderMailbox } from './handlers/poll-sender-mailbox.handler';
import { handlePollSenderMailboxes } from './handlers/poll-sender-mailboxes.handler';
import { handlePurgeDeletedAccountEvents } from './handlers/purge-deleted-account-events.handler';
import { handlePurgeDeletedLists } from './handlers/purge-deleted-lists.handler';
import { handlePurgeExpiredSessions } from './handlers/purge-expired-sessions.handler';
import { handlePurgeStaleImports } from './handlers/purge-stale-imports.handler';
import { handleRebuildDirectoryFacets } from './handlers/rebuild-directory-facets.handler';
import { handleRenewSubscriptions } from './handlers/renew-subscriptions.handler';
import { handleRollUpPlatformStats } from './handlers/roll-up-platform-stats.handler';
import { handleRunScrapeJob } from './handlers/run-scrape-job.handler';
import { handleSendCampaignTestRun } from './handlers/send-campaign-test-run.handler';
import { handleSendScheduledNewsletters } from './handlers/send-scheduled-newsletters.handler';
import { handleStartScheduledCampaigns } from './handlers/start-scheduled-campaigns.handler';
import { handleRecheckGreylisted, handleVerifyList } from './handlers/verify-list.handler';
import type { WorkerServices } from './services';

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

/** Registers every job handler and cron schedule on this process's queue. Answers a cleanup for shutdown. */
export async function registerWorkers(
  services: WorkerServices,
  log: FastifyBaseLogger,
): Promise<{ closeIdle(): Promise<void>; close(): void }> {
  const { queue } = services;
  const dispatcher = createDispatcher(services, log);
  // Several drains at once per process: each claims its own batch (SKIP LOCKED), so SMTP round trips
  // of one batch overlap the database work of another.
  await queue.work(
    dispatchOutboxJob.name,
    { localConcurrency: services.env?.DISPATCH_CONCURRENCY ?? 2 },
    logged(log, (job, jobLog) =>
      handleDispatchOutbox({ services, dispatcher, log: jobLog, signal: job.signal }),
    ),
  );
  await queue.schedule(dispatchOutboxJob.name, dispatchOutboxJob.cron, {});
  await queue.work(
    recoverOutboxLeasesJob.name,
    logged(log, (_job, jobLog) => handleRecoverOutboxLeases({ services, log: jobLog })),
  );
  await queue.schedule(recoverOutboxLeasesJob.name, recoverOutboxLeasesJob.cron, {});
  await queue.work(
    purgeExpiredSessionsJob.name,
    logged(log, (job, jobLog) =>
      handlePurgeExpiredSessions({
        services,
        log: jobLog,
        payload: purgeExpiredSessionsJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.schedule(purgeExpiredSessionsJob.name, purgeExpiredSessionsJob.cron, {});
  await queue.work(
    renewSubscriptionsJob.name,
    logged(log, (job, jobLog) =>
      handleRenewSubscriptions({
        services,
        log: jobLog,
        payload: renewSubscriptionsJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.schedule(renewSubscriptionsJob.name, renewSubscriptionsJob.cron, {});
  await queue.work(
    importContactsJob.name,
    logged(log, (job, jobLog) =>
      handleImportContacts({
        services,
        log: jobLog,
        payload: importContactsJob.payload.parse(job.data ?? {}),
        signal: job.signal,
      }),
    ),
  );
  for (const [definition, handle] of [
    [rebuildDirectoryFacetsJob, handleRebuildDirectoryFacets],
    [purgeDeletedListsJob, handlePurgeDeletedLists],
    [purgeDeletedAccountEventsJob, handlePurgeDeletedAccountEvents],
    [rollUpPlatformStatsJob, handleRollUpPlatformStats],
    [sendScheduledNewslettersJob, handleSendScheduledNewsletters],
  ] as const) {
    await queue.work(
      definition.name,
      logged(log, (job, jobLog) =>
        handle({
          services,
          log: jobLog,
          payload: definition.payload.parse(job.data ?? {}) as Record<string, never>,
        }),
      ),
    );
    await queue.schedule(definition.name, definition.cron, {});
  }
  await queue.work(
    purgeStaleImportsJob.name,
    logged(log, (job, jobLog) =>
      handlePurgeStaleImports({
        services,
        log: jobLog,
        payload: purgeStaleImportsJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.schedule(purgeStaleImportsJob.name, purgeStaleImportsJob.cron, {});
  await queue.work(
    checkSenderDomainsJob.name,
    logged(log, (job, jobLog) =>
      handleCheckSenderDomains({
        services,
        log: jobLog,
        payload: checkSenderDomainsJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.schedule(checkSenderDomainsJob.name, checkSenderDomainsJob.cron, {});
  await queue.work(
    pollSenderMailboxesJob.name,
    logged(log, (job, jobLog) =>
      handlePollSenderMailboxes({
        services,
        log: jobLog,
        payload: pollSenderMailboxesJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.schedule(pollSenderMailboxesJob.name, pollSenderMailboxesJob.cron, {});
  // Mailbox polls wait on remote servers, not on us: several run at once per process.
  await queue.work(
    pollSenderMailboxJob.name,
    { localConcurrency: pollSenderMailboxJob.concurrency },
    logged(log, (job, jobLog) =>
      handlePollSenderMailbox({
        services,
        log: jobLog,
        payload: pollSenderMailboxJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  // Copies of sent mail in each mailbox's Sent folder, off the send path (sending/sent-folder.ts).
  await queue.work(
    appendSentFolderJob.name,
    { localConcurrency: appendSentFolderJob.concurrency },
    logged(log, (job, jobLog) =>
      handleAppendSentFolder({
        services,
        log: jobLog,
        payload: appendSentFolderJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.work(
    appendSentFoldersJob.name,
    logged(log, (_job, jobLog) => handleAppendSentFolders({ services, log: jobLog })),
  );
  await queue.schedule(appendSentFoldersJob.name, appendSentFoldersJob.cron, {});
  // Crawls of the scraper: a slice at a time, each queueing the next.
  await queue.work(
    runScrapeJobJob.name,
    logged(log, (job, jobLog) =>
      handleRunScrapeJob({ services, log: jobLog, payload: runScrapeJobJob.payload.parse(job.data ?? {}) }),
    ),
  );
  // Email verification: "Verify list" runs, and greylisted addresses asked again when due.
  await queue.work(
    verifyListJob.name,
    logged(log, (job, jobLog) =>
      handleVerifyList({ services, log: jobLog, payload: verifyListJob.payload.parse(job.data ?? {}) }),
    ),
  );
  await queue.work(
    recheckGreylistedJob.name,
    logged(log, (_job, jobLog) => handleRecheckGreylisted({ services, log: jobLog })),
  );
  await queue.schedule(recheckGreylistedJob.name, recheckGreylistedJob.cron, {});
  // Test runs of a sequence: one step a minute to the user's own address.
  await queue.work(
    sendCampaignTestRunJob.name,
    logged(log, (job, jobLog) =>
      handleSendCampaignTestRun({
        services,
        log: jobLog,
        payload: sendCampaignTestRunJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  // Campaign sequences (#5): due steps queued every minute, and at once after a launch.
  await queue.work(
    advanceCampaignSequencesJob.name,
    logged(log, (job, jobLog) =>
      handleAdvanceCampaignSequences({
        services,
        log: jobLog,
        payload: advanceCampaignSequencesJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.schedule(advanceCampaignSequencesJob.name, advanceCampaignSequencesJob.cron, {});
  await queue.work(
    startScheduledCampaignsJob.name,
    logged(log, (job, jobLog) =>
      handleStartScheduledCampaigns({
        services,
        log: jobLog,
        payload: startScheduledCampaignsJob.payload.parse(job.data ?? {}),
      }),
    ),
  );
  await queue.schedule(startScheduledCampaignsJob.name, startScheduledCampaignsJob.cron, {});
  const idle = startImapIdle(services, log);
  return {
    closeIdle: async () => {
      await idle?.close();
    },
    close: () => dispatcher.close(),
  };
}

/** IMAP IDLE connections of this process (features/inbound/imap-idle.ts); none without IMAP_IDLE_CONNECTIONS. */
function startImapIdle(services: WorkerServices, log: FastifyBaseLogger): ImapIdleManager | null {
  const { env, secrets, queue } = services;
  if (!env || !secrets || env.IMAP_IDLE_CONNECTIONS === 0) return null;
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
