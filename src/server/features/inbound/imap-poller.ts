import type { Database } from '@server/db/client';
import { senderAccounts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import type { SystemMailer } from '@server/lib/mailer';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ImapFlow } from 'imapflow';
import type { SenderAccountRow } from '../sender-accounts/sender-accounts.service';
import { classifySmtpError } from '../sender-accounts/sender-accounts.service';
import { MAX_INBOUND_BYTES, processInboundMessage } from './process-inbound';

/*
 * Reads new mail from a sender account's INBOX over IMAP and hands each message to processInboundMessage.
 * Only INBOX: replies and bounces land there; a provider that files a reply as spam hides it from us too,
 * and reading Junk folders (named differently everywhere) is not worth the false matches.
 *
 * The mailbox is opened read-only (EXAMINE, BODY.PEEK): we never mark the owner's mail as read. Progress
 * is the last UID seen under the mailbox's UIDVALIDITY, saved after every batch; when UIDVALIDITY
 * changes (the server renumbered the mailbox) polling restarts from the last 7 days, and the inbound
 * table's unique (account, Message-ID) index keeps already-processed mail from counting twice.
 */

export type OpenImapClient = (account: SenderAccountRow) => Promise<ImapFlow>;

const FETCH_BATCH = 25;
/** One poll reads at most this many messages; the rest wait for the next poll. */
const MAX_MESSAGES_PER_POLL = 1_000;
const RESTART_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

export const IMAP_POLL_MESSAGES = {
  processing: 'Some new mail could not be processed; it will be read again at the next check.',
  noMailbox: 'The mail server did not open the INBOX folder.',
} as const;

export async function pollSenderMailbox(options: {
  db: Database;
  log: FastifyBaseLogger;
  account: SenderAccountRow;
  openImapClient: OpenImapClient;
  /** Passed on so hard bounces re-check the account's bounce rate. */
  senderHealth?: { mailer: SystemMailer; appUrl: string };
  /**
   * When this check began (the job's claim). imap_checked_at keeps the start, not the end: the schedule
   * counts from when mail was last looked at, and a slow poll must not push the next one a tick later.
   */
  checkedAt?: Date;
}): Promise<{ fetched: number }> {
  const { db, account } = options;
  const checkedAt = options.checkedAt ?? now();
  const log = options.log.child({ senderAccountId: account.id });
  let fetched = 0;
  let client: ImapFlow | null = null;
  let stage: 'imap' | 'processing' = 'imap';
  try {
    client = await options.openImapClient(account);
    if (!client.usable) await client.connect();
    const lock = await client.getMailboxLock('INBOX', { readOnly: true });
    try {
      const mailbox = client.mailbox;
      if (!mailbox) throw new Error(IMAP_POLL_MESSAGES.noMailbox);
      const uidValidity = Number(mailbox.uidValidity);
      const resume = account.imapUidValidity === uidValidity && account.imapLastUid !== null;
      const lastUid = resume ? account.imapLastUid! : 0;
      const found = resume
        ? await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })
        : await client.search({ since: new Date(now().getTime() - RESTART_LOOKBACK_MS) }, { uid: true });
      // "N:*" always names the newest message, even when its UID is below N.
      const uids = (found || []).filter((uid) => uid > lastUid).sort((a, b) => a - b);
      const todo = uids.slice(0, MAX_MESSAGES_PER_POLL);
      if (!resume) {
        // A fresh start: what is older than the lookback is behind us, whatever comes of this poll.
        const baseline = todo.length > 0 ? todo[0]! - 1 : Math.max(0, mailbox.uidNext - 1);
        await saveProgress(db, account.id, uidValidity, baseline);
      }
      for (let start = 0; start < todo.length; start += FETCH_BATCH) {
        const batch = todo.slice(start, start + FETCH_BATCH);
        const messages = await client.fetchAll(
          batch.join(','),
          { uid: true, source: { maxLength: MAX_INBOUND_BYTES } },
          { uid: true },
        );
        messages.sort((a, b) => a.uid - b.uid);
        let done: number | null = null;
        stage = 'processing';
        try {
          for (const message of messages) {
            if (message.source) {
              const result = await processInboundMessage({
                db,
                log,
                raw: message.source,
                senderAccountId: account.id,
                userId: account.userId,
                senderHealth: options.senderHealth,
              });
              log.debug({ uid: message.uid, ...result }, 'inbound mail processed');
              fetched++;
            }
            done = message.uid;
          }
        } finally {
          if (done !== null) await saveProgress(db, account.id, uidValidity, done);
        }
        stage = 'imap';
      }
      if (uids.length > todo.length)
        log.info({ waiting: uids.length - todo.length }, 'more mail waits for the next poll');
    } finally {
      lock.release();
    }
    await db
      .update(senderAccounts)
      .set({ imapCheckedAt: checkedAt, imapError: null })
      .where(eq(senderAccounts.id, account.id));
  } catch (error) {
    // The job runner gets nothing to retry: the next scheduled poll is the retry.
    const imapError =
      stage === 'processing' ? IMAP_POLL_MESSAGES.processing : classifySmtpError(error).safeMessage;
    log.warn({ err: error, stage }, 'mailbox poll failed');
    await db
      .update(senderAccounts)
      .set({ imapCheckedAt: checkedAt, imapError })
      .where(eq(senderAccounts.id, account.id))
      .catch((saveError) => log.error({ err: saveError }, 'could not record the mailbox poll failure'));
  } finally {
    if (client) {
      const open = client;
      await open.logout().catch(() => open.close());
    }
  }
  return { fetched };
}

async function saveProgress(
  db: Database,
  accountId: string,
  uidValidity: number,
  lastUid: number,
): Promise<void> {
  await db
    .update(senderAccounts)
    .set({ imapUidValidity: uidValidity, imapLastUid: lastUid })
    .where(eq(senderAccounts.id, accountId));
}
