import type { Database } from '@server/db/client';
import { senderAccounts } from '@server/db/schema/index';
import { defineJob } from '@server/jobs/define-job';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { and, asc, eq, isNull, lte, ne, or } from 'drizzle-orm';
import { z } from 'zod';
import { pollSenderMailboxJob } from './poll-sender-mailbox.job';

export const pollSenderMailboxesJob = defineJob({
  name: 'poll-sender-mailboxes',
  description: 'Queues a mailbox poll for every IMAP-enabled sender account whose poll interval has passed.',
  payload: z.object({}),
  /**
   * Every minute; each account is polled when its own last check is IMAP_POLL_MINUTES old, so the
   * interval follows the setting and accounts added since the last run are not kept waiting.
   */
  cron: '* * * * *',
  async run({ services, log }) {
    const { db, queue, env } = services;
    const result = await enqueueDueMailboxPolls({ db, queue, pollMinutes: env.IMAP_POLL_MINUTES });
    if (result.enqueued > 0) log.debug(result, 'mailbox polls enqueued');
  },
});

/** Upper bound of one fan-out; the rest are due again (and first in line) a minute later. */
const FAN_OUT_LIMIT = 5_000;

/**
 * Half the fan-out's own period. A poll's check time is a few seconds after the minute it was fanned out
 * in (cron jitter, the job's wait in the queue), so one interval later the account is seconds short of
 * due; without this slack it was skipped until the next minute and polls came every other interval.
 * Half a period never makes an account due a whole fan-out early.
 */
export const FAN_OUT_TOLERANCE_MS = 30_000;

/**
 * Sends one poll-sender-mailbox job per IMAP-enabled account that is not paused and is due. The job's
 * singletonKey is the account: while one is queued or running for an account, another is refused.
 * Safe to run twice.
 */
export async function enqueueDueMailboxPolls(options: {
  db: Database;
  queue: Queue;
  pollMinutes: number;
}): Promise<{ due: number; enqueued: number }> {
  const dueBefore = new Date(now().getTime() - options.pollMinutes * 60_000 + FAN_OUT_TOLERANCE_MS);
  const due = await options.db
    .select({ id: senderAccounts.id })
    .from(senderAccounts)
    .where(
      and(
        eq(senderAccounts.imapEnabled, true),
        ne(senderAccounts.status, 'paused'),
        or(isNull(senderAccounts.imapCheckedAt), lte(senderAccounts.imapCheckedAt, dueBefore)),
      ),
    )
    .orderBy(asc(senderAccounts.imapCheckedAt))
    .limit(FAN_OUT_LIMIT);
  let enqueued = 0;
  for (const account of due) {
    const id = await options.queue.send(
      pollSenderMailboxJob.name,
      { senderAccountId: account.id },
      { ...pollSenderMailboxJob.sendOptions, singletonKey: account.id },
    );
    if (id) enqueued++;
  }
  return { due: due.length, enqueued };
}
