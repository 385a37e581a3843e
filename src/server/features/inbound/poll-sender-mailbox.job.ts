import type { Database } from '@server/db/client';
import { senderAccounts } from '@server/db/schema/index';
import { defineJob } from '@server/jobs/define-job';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import type { SystemMailer } from '@server/lib/mailer';
import { and, eq, isNull, lte, ne, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { openImapClient } from '../sender-accounts/sender-accounts.service';
import { type OpenImapClient, pollSenderMailbox } from './imap-poller';

/** A poll reads at most 1,000 messages with 60 s socket timeouts; past this it is stuck. */
const POLL_EXPIRE_SECONDS = 15 * 60;

export const pollSenderMailboxJob = defineJob({
  name: 'poll-sender-mailbox',
  description: "Reads one sender account's mailbox over IMAP for replies and bounces.",
  payload: z.object({
    senderAccountId: z.uuid(),
    /** `idle`: the account's IDLE connection saw new mail (imap-idle.ts). */
    trigger: z.enum(['schedule', 'idle']).optional(),
  }),
  // One queued-or-active job per singletonKey (the account), so polls of one mailbox never overlap
  // however often the fan-out runs.
  queue: { policy: 'exclusive' },
  /** Polls one worker process runs at once (they wait on remote servers, not on the database). */
  concurrency: 4,
  sendOptions: { expireInSeconds: POLL_EXPIRE_SECONDS },
  async run({ services, log, payload }) {
    const { db, env, secrets, mailer } = services;
    const result = await pollSenderMailboxNow({
      db,
      log,
      senderAccountId: payload.senderAccountId,
      pollMinutes: env.IMAP_POLL_MINUTES,
      minGapMs: payload.trigger === 'idle' ? IDLE_POLL_MIN_GAP_MS : undefined,
      // The SSRF guard and the password's decryption happen here, on every connection.
      openImapClient: (account) =>
        openImapClient({ account, encryptionKey: secrets.encryptionKey, network: env.SENDER_NETWORK }),
      senderHealth: { mailer, appUrl: env.APP_URL },
    });
    if (result && result.fetched > 0) log.info(result, 'mailbox polled');
  },
});

/** A poll triggered by IDLE runs unless the mailbox was read this recently (a burst of new mail). */
export const IDLE_POLL_MIN_GAP_MS = 5_000;

/**
 * Queues the poll an IDLE connection's EXISTS asks for. It starts just past the minimum gap: mail that
 * arrives while (or just after) another poll ran would otherwise find that poll too recent and wait for
 * the next scheduled one. Answers false when a poll of the account is already queued or running.
 */
export async function enqueueIdleTriggeredPoll(options: {
  queue: Queue;
  senderAccountId: string;
}): Promise<boolean> {
  const id = await options.queue.send(
    pollSenderMailboxJob.name,
    { senderAccountId: options.senderAccountId, trigger: 'idle' },
    {
      singletonKey: options.senderAccountId,
      ...pollSenderMailboxJob.sendOptions,
      startAfter: Math.ceil(IDLE_POLL_MIN_GAP_MS / 1000) + 1,
    },
  );
  return Boolean(id);
}

/**
 * Polls one account's mailbox, if it still wants polling (IMAP on, not paused) and nobody polled it in
 * the last half interval. That claim (imap_checked_at moved forward atomically) keeps two copies of the
 * job — a retry, a queue created before its singleton policy — from reading the same mailbox at once.
 * Safe to run twice.
 */
export async function pollSenderMailboxNow(options: {
  db: Database;
  log: FastifyBaseLogger;
  senderAccountId: string;
  pollMinutes: number;
  /** How recently a poll must not have begun (default: half the interval; IDLE triggers use a few seconds). */
  minGapMs?: number;
  openImapClient: OpenImapClient;
  senderHealth?: { mailer: SystemMailer; appUrl: string };
}): Promise<{ fetched: number } | null> {
  const at = now();
  const claimedAfter = new Date(at.getTime() - (options.minGapMs ?? (options.pollMinutes * 60_000) / 2));
  const [account] = await options.db
    .update(senderAccounts)
    .set({ imapCheckedAt: at })
    .where(
      and(
        eq(senderAccounts.id, options.senderAccountId),
        eq(senderAccounts.imapEnabled, true),
        ne(senderAccounts.status, 'paused'),
        or(isNull(senderAccounts.imapCheckedAt), lte(senderAccounts.imapCheckedAt, claimedAfter)),
      ),
    )
    .returning();
  if (!account) return null;
  return pollSenderMailbox({
    db: options.db,
    log: options.log,
    account,
    openImapClient: options.openImapClient,
    senderHealth: options.senderHealth,
    checkedAt: at,
  });
}
