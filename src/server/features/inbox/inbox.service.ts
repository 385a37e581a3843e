import type { Database } from '@server/db/client';
import {
  campaignContacts,
  campaigns,
  inboundMessages,
  inboxCounts,
  inboxReplies,
  outboxAll,
  senderAccounts,
} from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { notFound } from '@server/lib/errors';
import { decodeCursor, encodeCursor } from '@server/lib/list-cursor';
import type { InboundKind } from '@shared/inbound';
import {
  canMarkWon,
  type InboxCategory,
  type InboxCounts,
  type InboxFilters,
  type InboxItem,
  type InboxPage,
  type InboxQuery,
  type InboxThread,
  type InboxUpdate,
  type ThreadEntry,
} from '@shared/inbox';
import { and, asc, desc, eq, gte, ilike, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';

/*
 * The unified inbox: a user's inbound mail that answers something they sent (it matched one of their
 * outbox messages, so it has a campaign — campaigns, newsletters and bulk sends alike), newest first, with
 * its read state, snooze, category and note. Every query is scoped to the owner: another user's message
 * is "not found".
 */

const SNIPPET_LENGTH = 200;
const THREAD_LIMIT = 200;

/** Matched mail only: unmatched mail keeps nothing but its Message-ID. */
const inInbox = (userId: string) =>
  and(eq(inboundMessages.userId, userId), isNotNull(inboundMessages.campaignId))!;

const notSnoozed = (at: Date) =>
  or(
    isNull(inboundMessages.snoozedUntil),
    sql`${inboundMessages.snoozedUntil} <= ${at.toISOString()}::timestamptz`,
  )!;
const snoozed = (at: Date) => sql`${inboundMessages.snoozedUntil} > ${at.toISOString()}::timestamptz`;

const itemColumns = {
  id: inboundMessages.id,
  kind: inboundMessages.kind,
  category: inboundMessages.category,
  categorySource: inboundMessages.categorySource,
  fromAddress: inboundMessages.fromAddress,
  subject: inboundMessages.subject,
  snippet: sql<string | null>`left(${inboundMessages.textBody}, ${SNIPPET_LENGTH})`,
  receivedAt: inboundMessages.receivedAt,
  readAt: inboundMessages.readAt,
  snoozedUntil: inboundMessages.snoozedUntil,
  note: inboundMessages.note,
  returnDate: sql<string | null>`${inboundMessages.details}->>'returnDate'`,
  campaignId: inboundMessages.campaignId,
  campaignName: campaigns.name,
  campaignKind: campaigns.kind,
  campaignContactId: inboundMessages.campaignContactId,
  senderAccountId: inboundMessages.senderAccountId,
  senderAccountLabel: senderAccounts.label,
  firstName: campaignContacts.firstName,
  lastName: campaignContacts.lastName,
  wonAt: campaignContacts.wonAt,
  dealValue: campaignContacts.dealValue,
  dealCurrency: campaignContacts.dealCurrency,
};

function selectItems(db: Database, where: SQL) {
  return db
    .select(itemColumns)
    .from(inboundMessages)
    .innerJoin(campaigns, eq(campaigns.id, inboundMessages.campaignId))
    .leftJoin(senderAccounts, eq(senderAccounts.id, inboundMessages.senderAccountId))
    .leftJoin(campaignContacts, eq(campaignContacts.id, inboundMessages.campaignContactId))
    .where(where);
}

type ItemRow = Awaited<ReturnType<typeof selectItems>>[number];

const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);

function toItem(row: ItemRow): InboxItem {
  const category = (row.category ?? null) as InboxCategory | null;
  const kind = row.kind as InboundKind;
  const name = [row.firstName, row.lastName].filter((part) => part?.trim()).join(' ');
  return {
    id: row.id,
    kind,
    category,
    categorySource: row.categorySource ?? null,
    fromAddress: row.fromAddress,
    contactName: name || null,
    subject: row.subject,
    snippet: (row.snippet ?? '').replace(/\s+/g, ' ').trim(),
    receivedAt: new Date(row.receivedAt).toISOString(),
    readAt: iso(row.readAt),
    snoozedUntil: iso(row.snoozedUntil),
    note: row.note,
    returnDate: row.returnDate ?? null,
    campaignId: row.campaignId,
    campaignName: row.campaignName,
    campaignKind: row.campaignKind,
    campaignContactId: row.campaignContactId,
    senderAccountId: row.senderAccountId,
    senderAccountLabel: row.senderAccountLabel ?? null,
    wonAt: iso(row.wonAt),
    dealValue: row.dealValue ?? null,
    dealCurrency: row.dealCurrency ?? null,
    canMarkWon: row.campaignContactId !== null && canMarkWon({ category, kind }),
  };
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listInbox(options: {
  db: Database;
  userId: string;
  query: InboxQuery;
}): Promise<InboxPage> {
  const { db, query } = options;
  const at = now();
  const conditions: (SQL | undefined)[] = [inInbox(options.userId)];
  if (query.status === 'snoozed') conditions.push(snoozed(at));
  else conditions.push(notSnoozed(at));
  if (query.status === 'unread') conditions.push(isNull(inboundMessages.readAt));
  if (query.status === 'read') conditions.push(isNotNull(inboundMessages.readAt));
  if (query.category === 'none') conditions.push(isNull(inboundMessages.category));
  else if (query.category) conditions.push(eq(inboundMessages.category, query.category));
  if (query.accountId) conditions.push(eq(inboundMessages.senderAccountId, query.accountId));
  if (query.campaignId) conditions.push(eq(inboundMessages.campaignId, query.campaignId));
  if (query.from) conditions.push(gte(inboundMessages.receivedAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) {
    const end = new Date(`${query.to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    conditions.push(lt(inboundMessages.receivedAt, end));
  }
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    conditions.push(
      or(
        ilike(inboundMessages.subject, pattern),
        ilike(inboundMessages.textBody, pattern),
        ilike(inboundMessages.fromAddress, pattern),
        ilike(campaigns.name, pattern),
      ),
    );
  }
  const cursor = decodeCursor(query.cursor);
  const plainFirstPage = conditions.length === 2 && query.status === 'all' && !cursor;
  if (plainFirstPage) {
    // Opening the inbox: the one query every visit runs, as a prepared statement.
    const rows = await firstPageStatement(db, query.limit + 1).execute({
      userId: options.userId,
      at: at.toISOString(),
    });
    return pageOf(rows, query.limit);
  }
  if (cursor) {
    conditions.push(
      sql`(${inboundMessages.receivedAt}, ${inboundMessages.id}) < (${cursor.key}::timestamptz, ${cursor.id}::uuid)`,
    );
  }
  const rows = await selectItems(db, and(...conditions)!)
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
    .limit(query.limit + 1);
  return pageOf(rows, query.limit);
}

function pageOf(rows: ItemRow[], limit: number): InboxPage {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toItem),
    nextCursor:
      rows.length > limit && last ? encodeCursor(new Date(last.receivedAt).toISOString(), last.id) : null,
  };
}

/*
 * The statements opening the inbox runs (its first page and its counts), prepared once per database:
 * on PostgreSQL each pooled connection parses them once and, after a few runs, keeps one generic plan,
 * so a visit no longer pays for planning a four-table join. Their text never changes for a name, so the
 * names are safe to share between connections.
 */
function prepareStatements(db: Database) {
  const userId = sql.placeholder('userId');
  const at = sql`${sql.placeholder('at')}::timestamptz`;
  return {
    keptCounts: db
      .select({ category: inboxCounts.category, total: inboxCounts.total, unread: inboxCounts.unread })
      .from(inboxCounts)
      .where(and(eq(inboxCounts.userId, userId), sql`${inboxCounts.total} > 0`))
      .prepare('inbox_kept_counts'),
    snoozedCounts: db
      .select({
        category: inboundMessages.category,
        total: sql<number>`count(*)::int`,
        unread: sql<number>`(count(*) FILTER (WHERE ${inboundMessages.readAt} IS NULL))::int`,
      })
      .from(inboundMessages)
      .where(
        and(
          eq(inboundMessages.userId, userId),
          isNotNull(inboundMessages.campaignId),
          sql`${inboundMessages.snoozedUntil} > ${at}`,
        ),
      )
      .groupBy(inboundMessages.category)
      .prepare('inbox_snoozed_counts'),
  };
}

function prepareFirstPage(db: Database, limit: number) {
  return (
    selectItems(
      db,
      and(
        eq(inboundMessages.userId, sql.placeholder('userId')),
        isNotNull(inboundMessages.campaignId),
        or(
          isNull(inboundMessages.snoozedUntil),
          sql`${inboundMessages.snoozedUntil} <= ${sql.placeholder('at')}::timestamptz`,
        ),
      )!,
    )
      .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
      // Written into the text, not bound: with an unknown LIMIT the generic plan is costed for a tenth of
      // the user's mail, PostgreSQL then keeps planning every run, and the statement saves nothing.
      .limit(sql.raw(String(Math.trunc(limit))) as unknown as number)
      .prepare(`inbox_first_page_${Math.trunc(limit)}`)
  );
}

const firstPageByDatabase = new WeakMap<Database, Map<number, ReturnType<typeof prepareFirstPage>>>();

/** One statement per page size (a handful in practice: the app asks for one size). */
function firstPageStatement(db: Database, limit: number) {
  let bySize = firstPageByDatabase.get(db);
  if (!bySize) {
    bySize = new Map();
    firstPageByDatabase.set(db, bySize);
  }
  let prepared = bySize.get(limit);
  if (!prepared) {
    prepared = prepareFirstPage(db, limit);
    bySize.set(limit, prepared);
  }
  return prepared;
}

const preparedByDatabase = new WeakMap<Database, ReturnType<typeof prepareStatements>>();

function statements(db: Database) {
  let prepared = preparedByDatabase.get(db);
  if (!prepared) {
    prepared = prepareStatements(db);
    preparedByDatabase.set(db, prepared);
  }
  return prepared;
}

/**
 * The counts the inbox and the account menu show. Totals and unread per category are kept counters
 * (inbox_counts, written by triggers on every change to the mail); a snooze ends by itself with time, so
 * the snoozed messages are counted live (a few rows, from their own index) and taken out of them.
 */
export async function getInboxCounts(options: { db: Database; userId: string }): Promise<InboxCounts> {
  const at = now().toISOString();
  const prepared = statements(options.db);
  const [kept, held] = await Promise.all([
    prepared.keptCounts.execute({ userId: options.userId }),
    prepared.snoozedCounts.execute({ userId: options.userId, at }),
  ]);
  const byCategory: Record<string, number> = {};
  let unread = 0;
  for (const row of kept) {
    byCategory[row.category || 'none'] = Number(row.total);
    unread += Number(row.unread);
  }
  let snoozedCount = 0;
  for (const row of held) {
    const key = row.category ?? 'none';
    byCategory[key] = (byCategory[key] ?? 0) - Number(row.total);
    unread -= Number(row.unread);
    snoozedCount += Number(row.total);
  }
  return { unread, snoozed: snoozedCount, byCategory };
}

export async function getInboxFilters(options: { db: Database; userId: string }): Promise<InboxFilters> {
  const { db, userId } = options;
  const [accounts, campaignRows] = await Promise.all([
    db
      .select({ id: senderAccounts.id, label: senderAccounts.label })
      .from(senderAccounts)
      .where(eq(senderAccounts.userId, userId))
      .orderBy(asc(senderAccounts.label)),
    db
      .select({ id: campaigns.id, name: campaigns.name, kind: campaigns.kind })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.userId, userId),
          sql`EXISTS (SELECT 1 FROM inbound_messages m WHERE m.campaign_id = ${campaigns.id} AND m.user_id = ${userId})`,
        ),
      )
      .orderBy(asc(campaigns.name)),
  ]);
  return { accounts, campaigns: campaignRows };
}

export async function getInboxItem(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<InboxItem> {
  const [row] = await selectItems(
    options.db,
    and(inInbox(options.userId), eq(inboundMessages.id, options.id))!,
  ).limit(1);
  if (!row) throw notFound('Message not found');
  return toItem(row);
}

export async function updateInboxMessage(options: {
  db: Database;
  userId: string;
  id: string;
  update: InboxUpdate;
}): Promise<InboxItem> {
  const { update } = options;
  const changes: Partial<typeof inboundMessages.$inferInsert> = {};
  if (update.read !== undefined) changes.readAt = update.read ? now() : null;
  if (update.category !== undefined) {
    changes.category = update.category;
    changes.categorySource = 'user';
  }
  if (update.snoozedUntil !== undefined) {
    changes.snoozedUntil = update.snoozedUntil ? new Date(update.snoozedUntil) : null;
  }
  if (update.note !== undefined) changes.note = update.note?.trim() || null;
  const [row] = await options.db
    .update(inboundMessages)
    .set(changes)
    .where(and(inInbox(options.userId), eq(inboundMessages.id, options.id)))
    .returning({ id: inboundMessages.id });
  if (!row) throw notFound('Message not found');
  return getInboxItem(options);
}

/** The conversation a message belongs to: everything sent to and received from its contact, oldest first. */
export async function getInboxThread(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<InboxThread> {
  const { db, userId } = options;
  const message = await getInboxItem(options);
  const [own] = await db
    .select({ outboxMessageId: inboundMessages.outboxMessageId })
    .from(inboundMessages)
    .where(eq(inboundMessages.id, message.id));
  const contactId = message.campaignContactId;
  const [sent, received, replied] = await Promise.all([
    db
      .select({
        id: outboxAll.id,
        at: outboxAll.sentAt,
        to: outboxAll.toEmail,
        subject: outboxAll.subject,
        text: outboxAll.text,
        html: outboxAll.html,
        from: senderAccounts.fromEmail,
      })
      .from(outboxAll)
      .leftJoin(senderAccounts, eq(senderAccounts.id, outboxAll.senderAccountId))
      .where(
        and(
          eq(outboxAll.userId, userId),
          isNotNull(outboxAll.sentAt),
          contactId
            ? eq(outboxAll.campaignContactId, contactId)
            : eq(outboxAll.id, own?.outboxMessageId ?? '00000000-0000-0000-0000-000000000000'),
        ),
      )
      .orderBy(asc(outboxAll.sentAt))
      .limit(THREAD_LIMIT),
    db
      .select({
        id: inboundMessages.id,
        at: inboundMessages.receivedAt,
        from: inboundMessages.fromAddress,
        subject: inboundMessages.subject,
        text: inboundMessages.textBody,
        category: inboundMessages.category,
      })
      .from(inboundMessages)
      .where(
        and(
          inInbox(userId),
          contactId ? eq(inboundMessages.campaignContactId, contactId) : eq(inboundMessages.id, message.id),
        ),
      )
      .orderBy(asc(inboundMessages.receivedAt))
      .limit(THREAD_LIMIT),
    db
      .select()
      .from(inboxReplies)
      .where(
        and(
          eq(inboxReplies.userId, userId),
          contactId
            ? eq(inboxReplies.campaignContactId, contactId)
            : eq(inboxReplies.inboundMessageId, message.id),
        ),
      )
      .orderBy(asc(inboxReplies.sentAt))
      .limit(THREAD_LIMIT),
  ]);
  const entries: ThreadEntry[] = [
    ...sent.map((m) => ({
      id: m.id,
      type: 'sent' as const,
      at: new Date(m.at!).toISOString(),
      from: m.from ?? null,
      to: m.to,
      subject: m.subject,
      text: m.text?.trim() || htmlToText(m.html),
      category: null,
    })),
    ...received.map((m) => ({
      id: m.id,
      type: 'received' as const,
      at: new Date(m.at).toISOString(),
      from: m.from,
      to: null,
      subject: m.subject,
      text: m.text ?? '',
      category: (m.category ?? null) as InboxCategory | null,
    })),
    ...replied.map((m) => ({
      id: m.id,
      type: 'replied' as const,
      at: m.sentAt.toISOString(),
      from: m.fromAddress,
      to: m.toAddress,
      subject: m.subject,
      text: m.textBody,
      category: null,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));

  const account = await replyAccountOf(db, userId, message.id);
  return {
    message,
    entries,
    replyFrom: account ? { id: account.id, label: account.label, email: account.fromEmail } : null,
    signature: account?.signature ?? null,
  };
}

/** The account a reply goes from: the mailbox the answer arrived in, else the one that sent the original. */
export async function replyAccountOf(db: Database, userId: string, inboundId: string) {
  const [row] = await db
    .select({
      inboundAccount: inboundMessages.senderAccountId,
      outboxAccount: outboxAll.senderAccountId,
    })
    .from(inboundMessages)
    .leftJoin(outboxAll, eq(outboxAll.id, inboundMessages.outboxMessageId))
    .where(and(inInbox(userId), eq(inboundMessages.id, inboundId)));
  const accountId = row?.inboundAccount ?? row?.outboxAccount ?? null;
  if (!accountId) return null;
  const [account] = await db
    .select()
    .from(senderAccounts)
    .where(and(eq(senderAccounts.id, accountId), eq(senderAccounts.userId, userId)));
  return account ?? null;
}

export async function setAccountSignature(options: {
  db: Database;
  userId: string;
  accountId: string;
  signature: string | null;
}): Promise<{ signature: string | null }> {
  const [row] = await options.db
    .update(senderAccounts)
    .set({ signature: options.signature?.trim() || null })
    .where(and(eq(senderAccounts.id, options.accountId), eq(senderAccounts.userId, options.userId)))
    .returning({ signature: senderAccounts.signature });
  if (!row) throw notFound('Sender account not found');
  return row;
}

function htmlToText(html: string): string {
  return html
    .replace(/<(?:style|script|head)[\s\S]*?<\/(?:style|script|head)>/gi, '')
    .replace(/<br\s*\/?>|<\/p>|<\/div>|<\/li>|<\/h\d>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
