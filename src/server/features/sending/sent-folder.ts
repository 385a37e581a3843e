import type { Database } from '@server/db/client';
import { senderAccounts, sentFolderCopies } from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import type { HostLookup, SenderNetwork } from '@server/lib/network-guard';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ImapFlow } from 'imapflow';
import {
  classifySmtpError,
  openImapClient,
  type SenderAccountRow,
} from '../sender-accounts/sender-accounts.service';

/*
 * Campaign mail in the mailbox's own Sent folder, as a mail client would leave it. Kept off the send path:
 *
 * 1. the dispatcher's transport (transport-cache.ts) hands each accepted message's exact bytes to a
 *    recorder (createSentFolderRecorder), in memory, without waiting for anything;
 * 2. the recorder writes them to `sent_folder_copies` in multi-row inserts about once a second and queues
 *    one `append-sent-folder` job per account (pg-boss, policy stately: one queued and one running per
 *    account);
 * 3. the job logs in over IMAP once, finds the Sent folder and APPENDs the waiting messages (\Seen),
 *    deleting each row as it lands. A failure is logged and left on the account (`sent_folder_error`, a
 *    fixed message) and the rows wait for the next job; a sweep (`append-sent-folders`, every 10 minutes)
 *    picks up accounts left behind. Rows older than two days are dropped: a mailbox that stays unreachable
 *    costs at most two days of an account's sends (300 a day at most).
 *
 * The raw message is stored, not rebuilt from the outbox row: the Date header and the MIME boundary are
 * made at send time, and the copy is meant to be the very message the recipient got.
 */

/** Names servers without SPECIAL-USE give their Sent folder, in order of preference (any case). */
const SENT_FOLDER_NAMES = ['Sent', 'Sent Items', 'Sent Messages', 'INBOX.Sent', 'INBOX/Sent', 'Sent Mail'];
const KEEP_COPIES_MS = 2 * 86_400_000;
/** Messages appended per job; the job queues itself again when more are waiting. */
const APPEND_BATCH = 100;

export const SENT_FOLDER_MESSAGES = {
  noFolder: 'We could not find a Sent folder in this mailbox, so sent emails are not copied there.',
} as const;

/** Whether an account's sent mail should be copied to its Sent folder. */
export function wantsSentFolderCopy(
  account: Pick<SenderAccountRow, 'imapEnabled' | 'sentFolderEnabled' | 'isDevMailbox'>,
): boolean {
  return account.imapEnabled && account.sentFolderEnabled && !account.isDevMailbox;
}

/** The Sent folder's path: the one flagged \Sent (RFC 6154), else the usual names. */
export async function findSentFolder(client: ImapFlow): Promise<string | null> {
  const mailboxes = await client.list();
  const flagged = mailboxes.find((m) => m.specialUse === '\\Sent');
  if (flagged) return flagged.path;
  for (const name of SENT_FOLDER_NAMES) {
    const found = mailboxes.find((m) => m.path.toLowerCase() === name.toLowerCase());
    if (found) return found.path;
  }
  return null;
}

export interface SentFolderContext {
  db: Database;
  encryptionKey: Buffer;
  network: SenderNetwork;
  lookup?: HostLookup;
  log?: FastifyBaseLogger;
  /** Tests: an IMAP client for the account (the app's openImapClient otherwise). */
  openImapClient?: (account: SenderAccountRow) => Promise<ImapFlow>;
}

/** Waiting copies, written in one multi-row insert. What the lead's code may call with raw messages. */
export async function recordSentCopies(options: {
  db: Database;
  copies: { accountId: string; raw: string | Buffer }[];
}): Promise<void> {
  if (options.copies.length === 0) return;
  await options.db.insert(sentFolderCopies).values(
    options.copies.map((copy) => ({
      senderAccountId: copy.accountId,
      raw: typeof copy.raw === 'string' ? copy.raw : copy.raw.toString('utf8'),
    })),
  );
}

/**
 * Appends one account's waiting copies to its Sent folder (at most `limit`), over one IMAP connection.
 * Never throws for the server's sake: failures land on the account. Safe to run twice (each row is deleted
 * as soon as its APPEND is answered).
 */
export async function appendPendingSentCopies(
  options: SentFolderContext & { accountId: string; limit?: number },
): Promise<{ appended: number; remaining: boolean; error: string | null }> {
  const { db, accountId } = options;
  await db
    .delete(sentFolderCopies)
    .where(
      and(
        eq(sentFolderCopies.senderAccountId, accountId),
        lt(sentFolderCopies.createdAt, new Date(now().getTime() - KEEP_COPIES_MS)),
      ),
    );
  const [account] = await db.select().from(senderAccounts).where(eq(senderAccounts.id, accountId)).limit(1);
  if (!account) return { appended: 0, remaining: false, error: null };
  if (!wantsSentFolderCopy(account)) {
    // Turned off (or IMAP off) since these were sent: nobody wants them any more.
    await db.delete(sentFolderCopies).where(eq(sentFolderCopies.senderAccountId, accountId));
    return { appended: 0, remaining: false, error: null };
  }
  const limit = options.limit ?? APPEND_BATCH;
  const rows = await db
    .select({ id: sentFolderCopies.id, raw: sentFolderCopies.raw })
    .from(sentFolderCopies)
    .where(eq(sentFolderCopies.senderAccountId, accountId))
    .orderBy(asc(sentFolderCopies.id))
    .limit(limit + 1);
  if (rows.length === 0) return { appended: 0, remaining: false, error: null };
  const batch = rows.slice(0, limit);

  let appended = 0;
  let error: string | null = null;
  let client: ImapFlow | null = null;
  try {
    client = options.openImapClient
      ? await options.openImapClient(account)
      : await openImapClient({
          account,
          encryptionKey: options.encryptionKey,
          network: options.network,
          lookup: options.lookup,
        });
    await client.connect();
    const folder = await findSentFolder(client);
    if (!folder) {
      error = SENT_FOLDER_MESSAGES.noFolder;
    } else {
      for (const row of batch) {
        await client.append(folder, row.raw, ['\\Seen']);
        await db.delete(sentFolderCopies).where(eq(sentFolderCopies.id, row.id));
        appended++;
      }
    }
  } catch (caught) {
    error = classifySmtpError(caught).safeMessage;
    options.log?.warn(
      { senderAccountId: accountId, err: caught },
      'could not copy sent mail to the Sent folder',
    );
  } finally {
    await client?.logout().catch(() => client?.close());
  }
  if (error && error === SENT_FOLDER_MESSAGES.noFolder) {
    // Nothing will ever land: keep nothing waiting for a folder that does not exist.
    await db.delete(sentFolderCopies).where(
      inArray(
        sentFolderCopies.id,
        batch.map((r) => r.id),
      ),
    );
    options.log?.warn({ senderAccountId: accountId }, 'no Sent folder in this mailbox');
  }
  await db
    .update(senderAccounts)
    .set(
      error
        ? { sentFolderError: error }
        : { sentFolderError: null, ...(appended > 0 ? { sentFolderAppendedAt: now() } : {}) },
    )
    .where(eq(senderAccounts.id, accountId));
  return { appended, remaining: !error && rows.length > limit, error };
}

/** Copies one message to the account's Sent folder now (tests, one-off sends). Never throws. */
export async function appendToSentFolder(
  options: SentFolderContext & { accountId: string; raw: string | Buffer },
): Promise<{ appended: boolean; error: string | null }> {
  await recordSentCopies({ db: options.db, copies: [{ accountId: options.accountId, raw: options.raw }] });
  const result = await appendPendingSentCopies(options);
  return { appended: result.appended > 0, error: result.error };
}

export const APPEND_SENT_FOLDER_JOB = 'append-sent-folder';

/** Queues the append job of each account (one queued and one running at most per account). */
export async function queueSentFolderAppends(queue: Queue, accountIds: Iterable<string>): Promise<void> {
  for (const accountId of new Set(accountIds)) {
    await queue.send(APPEND_SENT_FOLDER_JOB, { senderAccountId: accountId }, { singletonKey: accountId });
  }
}

/** The sweep: every account with copies waiting gets a job. */
export async function queueWaitingSentFolderAppends(options: {
  db: Database;
  queue: Queue;
}): Promise<number> {
  const waiting = await options.db
    .selectDistinct({ id: sentFolderCopies.senderAccountId })
    .from(sentFolderCopies)
    .limit(5_000);
  await queueSentFolderAppends(
    options.queue,
    waiting.map((w) => w.id),
  );
  return waiting.length;
}

export interface SentFolderRecorder {
  /** Takes a sent message's bytes; returns at once (no I/O). */
  add(account: Pick<SenderAccountRow, 'id'>, raw: string | Buffer): void;
  /** Writes what is buffered now (shutdown, tests). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** In memory at most this many messages (a database outage): beyond it copies are dropped and logged. */
const MAX_BUFFERED = 5_000;

/**
 * The dispatcher's side: buffers copies and writes them in the background (one insert a second, or at
 * once past 200), then queues the append jobs. A write that fails is logged and dropped: a missing copy in
 * the Sent folder must never hold up or fail sending.
 */
export function createSentFolderRecorder(options: {
  db: Database;
  queue: Queue;
  log: FastifyBaseLogger;
  flushMs?: number;
}): SentFolderRecorder {
  let buffer: { accountId: string; raw: string | Buffer }[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let dropped = 0;

  const write = async (copies: typeof buffer) => {
    try {
      await recordSentCopies({ db: options.db, copies });
      await queueSentFolderAppends(
        options.queue,
        copies.map((c) => c.accountId),
      );
    } catch (error) {
      options.log.warn({ err: error, copies: copies.length }, 'could not keep sent mail for the Sent folder');
    }
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const copies = buffer;
    buffer = [];
    if (copies.length > 0) writing = writing.then(() => write(copies));
    return writing;
  };
  return {
    add(account, raw) {
      if (buffer.length >= MAX_BUFFERED) {
        if (dropped++ % 1000 === 0)
          options.log.warn({ dropped }, 'sent-folder copies dropped: too many waiting to be written');
        return;
      }
      buffer.push({ accountId: account.id, raw });
      if (buffer.length >= 200) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), options.flushMs ?? 1000);
        timer.unref();
      }
    },
    flush,
    close: flush,
  };
}
