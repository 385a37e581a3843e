import { purgeDeletedAccountEventsJob } from '../features/account/purge-deleted-account-events.job';
import { rollUpPlatformStatsJob } from '../features/admin-analytics/roll-up-platform-stats.job';
import { evaluateAlertRulesJob } from '../features/admin-operations/evaluate-alert-rules.job';
import { pruneAppLogsJob } from '../features/admin-operations/prune-app-logs.job';
import { foldRollupSlotsJob } from '../features/analytics/fold-rollup-slots.job';
import { maintainEventPartitionsJob } from '../features/analytics/maintain-event-partitions.job';
import { purgeExpiredSessionsJob } from '../features/auth/purge-expired-sessions.job';
import { advanceCampaignSequencesJob } from '../features/campaigns/advance-campaign-sequences.job';
import { scheduleNextSteps } from '../features/campaigns/campaigns.service';
import { sendCampaignTestRunJob } from '../features/campaigns/send-campaign-test-run.job';
import { startScheduledCampaignsJob } from '../features/campaigns/start-scheduled-campaigns.job';
import { rebuildDirectoryFacetsJob } from '../features/directory/rebuild-directory-facets.job';
import { importContactsJob } from '../features/imports/import-contacts.job';
import { purgeStaleImportsJob } from '../features/imports/purge-stale-imports.job';
import { pollSenderMailboxJob } from '../features/inbound/poll-sender-mailbox.job';
import { pollSenderMailboxesJob } from '../features/inbound/poll-sender-mailboxes.job';
import { purgeDeletedListsJob } from '../features/lists/purge-deleted-lists.job';
import {
  finishNewsletterSendsJob,
  queueNewsletterAudienceJob,
  requestNewsletterFinish,
  sendScheduledNewslettersJob,
} from '../features/newsletters/send-scheduled-newsletters.job';
import { expireAbandonedCheckoutsJob } from '../features/payments/expire-abandoned-checkouts.job';
import { renewSubscriptionsJob } from '../features/payments/renew-subscriptions.job';
import { purgeDeletedDirectoryContactsJob } from '../features/recycle-bin/purge-deleted-directory-contacts.job';
import { purgeRecycleBinJob } from '../features/recycle-bin/purge-recycle-bin.job';
import { runScrapeJobJob } from '../features/scraper/run-scrape-job.job';
import { checkSenderDomainsJob } from '../features/sender-accounts/check-sender-domains.job';
import { appendSentFolderJob, appendSentFoldersJob } from '../features/sending/append-sent-folder.job';
import { archiveOutboxJob } from '../features/sending/archive-outbox.job';
import { dispatchOutboxJobWith } from '../features/sending/dispatch-outbox.job';
import { recoverOutboxLeasesJob } from '../features/sending/recover-outbox-leases.job';
import { purgeSiteTrafficJob } from '../features/site-traffic/purge-site-traffic.job';
import { rollUpSiteTrafficJob } from '../features/site-traffic/roll-up-site-traffic.job';
import {
  recheckGreylistedJob,
  verifyDirectoryJob,
  verifyListJob,
} from '../features/verification/verify-list.job';
import type { AnyJobDefinition } from './define-job';

/**
 * Every background job of the application. The queue creates a queue for each, the worker registers
 * each (and schedules those with a cron), and the admin's Automated Schedules screen lists the scheduled
 * ones. Adding a job: `defineJob` beside its feature, then one line here.
 */
export const JOBS: readonly AnyJobDefinition[] = [
  // Accounts and billing
  purgeExpiredSessionsJob,
  renewSubscriptionsJob,
  expireAbandonedCheckoutsJob,
  purgeDeletedAccountEventsJob,
  // Imports, lists and the directory
  importContactsJob,
  purgeStaleImportsJob,
  rebuildDirectoryFacetsJob,
  purgeDeletedListsJob,
  // Sending engine (docs/sending.md)
  dispatchOutboxJobWith({
    onStepMessagesSent: scheduleNextSteps,
    // A newsletter whose last message just went out is marked sent now, not at the next minute.
    onDrained: ({ queue }) => requestNewsletterFinish(queue),
  }),
  recoverOutboxLeasesJob,
  archiveOutboxJob,
  checkSenderDomainsJob,
  pollSenderMailboxesJob,
  pollSenderMailboxJob,
  appendSentFolderJob,
  appendSentFoldersJob,
  // Campaigns, newsletters and bulk emails
  advanceCampaignSequencesJob,
  startScheduledCampaignsJob,
  sendCampaignTestRunJob,
  sendScheduledNewslettersJob,
  finishNewsletterSendsJob,
  queueNewsletterAudienceJob,
  // The scraper (/admin/scraper)
  runScrapeJobJob,
  // Email verification
  verifyListJob,
  recheckGreylistedJob,
  verifyDirectoryJob,
  // The operator's console: figures, the log table's bounds, alert rules, the recycle bin
  rollUpPlatformStatsJob,
  maintainEventPartitionsJob,
  foldRollupSlotsJob,
  rollUpSiteTrafficJob,
  purgeSiteTrafficJob,
  pruneAppLogsJob,
  evaluateAlertRulesJob,
  purgeDeletedDirectoryContactsJob,
  purgeRecycleBinJob,
];

/** The job of this queue name, if the application has one. */
export function findJob(name: string): AnyJobDefinition | undefined {
  return JOBS.find((job) => job.name === name);
}
