import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { escapeCsvFormula } from '../../../shared/imports';
import type {
  NewsletterProgress,
  NewsletterRecipientPage,
  NewsletterRecipientRow,
  NewsletterRecipientsQuery,
  NewsletterReport,
  NewsletterReportSummary,
  RecipientReportStatus,
} from '../../../shared/newsletter-report';
import type { Database } from '../../db/client';
import { campaignContacts, campaigns, emailEvents, outboxMessages } from '../../db/schema/index';
import { getNewsletterRow, type NewsletterRow } from './newsletters.service';

/*
 * Progress while a newsletter goes out and its report afterwards. Everything is read through the send's
 * engine campaign with indexed paths: the outbox by (campaign_id, state), the event log by
 * (campaign_id, type, occurred_at), a recipient's messages by campaign_contact_id and their events by
 * outbox_message_id. Another user's newsletter answers 404 (getNewsletterRow).
 */

const OUTBOX_FAILED = new Set(['failed', 'bounced', 'suppressed', 'cancelled']);
const LINKS_MAX = 200;
const HOURS = 48;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function outboxCounts(db: Database, campaignId: string) {
  const rows = await db
    .select({ state: outboxMessages.state, n: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .where(eq(outboxMessages.campaignId, campaignId))
    .groupBy(outboxMessages.state);
  const counts = { queued: 0, sent: 0, failed: 0, bounced: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.state === 'sent') counts.sent += n;
    else if (OUTBOX_FAILED.has(row.state)) {
      counts.failed += n;
      if (row.state === 'bounced') counts.bounced += n;
    } else counts.queued += n;
  }
  return counts;
}

async function recipientCount(db: Database, campaignId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, campaignId));
  return Number(row?.n ?? 0);
}

export async function getNewsletterProgress(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<NewsletterProgress> {
  const { db } = options;
  const row = await getNewsletterRow(options);
  if (!row.campaignId) {
    return { status: row.status, preparing: false, recipients: 0, queued: 0, sent: 0, failed: 0 };
  }
  const [[campaign], counts, recipients] = await Promise.all([
    db
      .select({ startedAt: campaigns.startedAt })
      .from(campaigns)
      .where(eq(campaigns.id, row.campaignId))
      .limit(1),
    outboxCounts(db, row.campaignId),
    recipientCount(db, row.campaignId),
  ]);
  return {
    status: row.status,
    preparing: row.status === 'sending' && !campaign?.startedAt,
    recipients,
    queued: counts.queued,
    sent: counts.sent,
    failed: counts.failed,
  };
}

async function eventSummary(db: Database, row: NewsletterRow, campaignId: string) {
  const result = await db.execute(sql`
    select
      count(*) filter (where type = 'opened' and not machine)::int as opens,
      count(distinct campaign_contact_id) filter (where type = 'opened' and not machine)::int as unique_opens,
      count(*) filter (where type = 'opened' and machine)::int as machine_opens,
      count(*) filter (where type = 'clicked' and not machine)::int as clicks,
      count(distinct campaign_contact_id) filter (where type = 'clicked' and not machine)::int as unique_clickers,
      count(*) filter (where type = 'clicked' and machine)::int as machine_clicks,
      count(distinct campaign_contact_id) filter (where type = 'bounced')::int as bounces,
      count(distinct campaign_contact_id) filter (where type = 'unsubscribed')::int as unsubscribes,
      count(distinct campaign_contact_id) filter (where type = 'complained')::int as complaints
    from ${emailEvents}
    where ${emailEvents.campaignId} = ${campaignId}
      and ${emailEvents.userId} = ${row.userId}
      and ${emailEvents.type} in ('opened', 'clicked', 'bounced', 'unsubscribed', 'complained')
  `);
  const [r] = rowsOf<Record<string, number>>(result);
  const n = (key: string) => Number(r?.[key] ?? 0);
  return {
    opens: n('opens'),
    uniqueOpens: n('unique_opens'),
    machineOpens: n('machine_opens'),
    clicks: n('clicks'),
    uniqueClickers: n('unique_clickers'),
    machineClicks: n('machine_clicks'),
    bounces: n('bounces'),
    unsubscribes: n('unsubscribes'),
    complaints: n('complaints'),
  };
}

async function linkFigures(db: Database, row: NewsletterRow, campaignId: string) {
  const result = await db.execute(sql`
    select ${emailEvents.detail} as url, count(*)::int as clicks,
      count(distinct ${emailEvents.campaignContactId})::int as uniq
    from ${emailEvents}
    where ${emailEvents.campaignId} = ${campaignId}
      and ${emailEvents.userId} = ${row.userId}
      and ${emailEvents.type} = 'clicked'
      and not ${emailEvents.machine}
      and ${emailEvents.detail} is not null
    group by 1
    order by 2 desc, 1
    limit ${LINKS_MAX}
  `);
  return rowsOf<{ url: string; clicks: number; uniq: number }>(result).map((l) => ({
    url: l.url,
    clicks: Number(l.clicks),
    unique: Number(l.uniq),
  }));
}

async function hourFigures(db: Database, row: NewsletterRow, campaignId: string, start: Date) {
  const end = new Date(start.getTime() + HOURS * 3600_000);
  const result = await db.execute(sql`
    select floor(extract(epoch from (${emailEvents.occurredAt} - ${start.toISOString()}::timestamptz)) / 3600)::int as hour,
      ${emailEvents.type} as type, count(*)::int as n
    from ${emailEvents}
    where ${emailEvents.campaignId} = ${campaignId}
      and ${emailEvents.userId} = ${row.userId}
      and ${emailEvents.type} in ('opened', 'clicked')
      and not ${emailEvents.machine}
      and ${emailEvents.occurredAt} >= ${start.toISOString()}::timestamptz
      and ${emailEvents.occurredAt} < ${end.toISOString()}::timestamptz
    group by 1, 2
  `);
  const hours = Array.from({ length: HOURS }, (_, hour) => ({ hour, opens: 0, clicks: 0 }));
  for (const r of rowsOf<{ hour: number; type: string; n: number }>(result)) {
    const slot = hours[Number(r.hour)];
    if (!slot) continue;
    if (r.type === 'opened') slot.opens += Number(r.n);
    else slot.clicks += Number(r.n);
  }
  return hours;
}

const EMPTY_SUMMARY: NewsletterReportSummary = {
  recipients: 0,
  delivered: 0,
  failed: 0,
  uniqueOpens: 0,
  opens: 0,
  machineOpens: 0,
  clicks: 0,
  uniqueClickers: 0,
  machineClicks: 0,
  bounces: 0,
  unsubscribes: 0,
  complaints: 0,
};

/*
 * A report reads every event of the send (a million for a large newsletter: seconds of aggregation),
 * while its figures move slowly once the send is over. So each report is kept for a short while and,
 * once older, served as it is while one fresh computation runs behind it (stale-while-revalidate):
 * only the first load of a newsletter waits for the aggregation. The owner check runs on every load,
 * before the cache is read. The key carries the status, so the end of a send is never served stale.
 */
const REPORT_FRESH_MS = 15_000;
const REPORT_CACHE_MAX = 500;
const reportCache = new Map<
  string,
  { at: number; value: NewsletterReport | null; pending: Promise<NewsletterReport> | null }
>();

async function loadReport(db: Database, row: NewsletterRow): Promise<NewsletterReport> {
  const key = `${row.id}:${row.status}`;
  const entry = reportCache.get(key) ?? { at: 0, value: null, pending: null };
  if (entry.value && Date.now() - entry.at < REPORT_FRESH_MS) return entry.value;
  if (!entry.pending) {
    entry.pending = computeReport(db, row)
      .then((value) => {
        entry.value = value;
        entry.at = Date.now();
        return value;
      })
      .finally(() => {
        entry.pending = null;
      });
    reportCache.delete(key);
    reportCache.set(key, entry);
    while (reportCache.size > REPORT_CACHE_MAX) reportCache.delete(reportCache.keys().next().value!);
  }
  if (entry.value) {
    // Served stale while it refreshes; a failed refresh is tried again by the next load.
    entry.pending?.catch(() => undefined);
    return entry.value;
  }
  return entry.pending!;
}

/** Forgets every kept report (tests; a newsletter whose figures must be read afresh). */
export function clearNewsletterReportCache(): void {
  reportCache.clear();
}

export async function getNewsletterReport(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<NewsletterReport> {
  const row = await getNewsletterRow(options);
  return loadReport(options.db, row);
}

async function computeReport(db: Database, row: NewsletterRow): Promise<NewsletterReport> {
  const base = {
    id: row.id,
    name: row.name,
    subject: row.subject,
    kind: row.kind,
    status: row.status,
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
  };
  if (!row.campaignId) {
    return {
      ...base,
      summary: EMPTY_SUMMARY,
      links: [],
      hours: Array.from({ length: HOURS }, (_, hour) => ({ hour, opens: 0, clicks: 0 })),
    };
  }
  const start = row.sentAt ?? row.createdAt;
  const [recipients, counts, events, links, hours] = await Promise.all([
    recipientCount(db, row.campaignId),
    outboxCounts(db, row.campaignId),
    eventSummary(db, row, row.campaignId),
    linkFigures(db, row, row.campaignId),
    hourFigures(db, row, row.campaignId, start),
  ]);
  // A bounce reported after the server accepted the message (a bounce email) leaves it 'sent' in the
  // outbox: it was not delivered either.
  const lateBounces = Math.max(0, events.bounces - counts.bounced);
  return {
    ...base,
    summary: {
      recipients,
      delivered: Math.max(0, counts.sent - lateBounces),
      failed: counts.failed,
      ...events,
    },
    links,
    hours,
  };
}

/** The furthest a recipient's message got. */
export function recipientStatus(input: {
  outboxState: string | null;
  opens: number;
  clicks: number;
  bounced: boolean;
  unsubscribed: boolean;
  complained: boolean;
}): RecipientReportStatus {
  if (input.complained) return 'complained';
  if (input.unsubscribed) return 'unsubscribed';
  if (input.bounced || input.outboxState === 'bounced') return 'bounced';
  if (input.clicks > 0) return 'clicked';
  if (input.opens > 0) return 'opened';
  if (input.outboxState === 'sent') return 'sent';
  if (input.outboxState && OUTBOX_FAILED.has(input.outboxState)) return 'failed';
  return 'queued';
}

type ContactRow = { id: string; email: string; firstName: string | null; lastName: string | null };

/** Outbox state and event counts of these recipients, one row each, in the given order. */
async function describeRecipients(
  db: Database,
  row: NewsletterRow,
  contacts: ContactRow[],
): Promise<NewsletterRecipientRow[]> {
  if (contacts.length === 0) return [];
  const ids = contacts.map((c) => c.id);
  const messages = await db
    .select({
      id: outboxMessages.id,
      contactId: outboxMessages.campaignContactId,
      state: outboxMessages.state,
      sentAt: outboxMessages.sentAt,
    })
    .from(outboxMessages)
    .where(inArray(outboxMessages.campaignContactId, ids));
  const messageIds = messages.map((m) => m.id);
  const events =
    messageIds.length === 0
      ? []
      : await db
          .select({
            messageId: emailEvents.outboxMessageId,
            opens: sql<number>`count(*) filter (where ${emailEvents.type} = 'opened' and not ${emailEvents.machine})::int`,
            clicks: sql<number>`count(*) filter (where ${emailEvents.type} = 'clicked' and not ${emailEvents.machine})::int`,
            bounced: sql<boolean>`bool_or(${emailEvents.type} = 'bounced')`,
            unsubscribed: sql<boolean>`bool_or(${emailEvents.type} = 'unsubscribed')`,
            complained: sql<boolean>`bool_or(${emailEvents.type} = 'complained')`,
          })
          .from(emailEvents)
          .where(and(inArray(emailEvents.outboxMessageId, messageIds), eq(emailEvents.userId, row.userId)))
          .groupBy(emailEvents.outboxMessageId);
  const byMessage = new Map(events.map((e) => [e.messageId, e]));
  const byContact = new Map(messages.map((m) => [m.contactId, m]));
  return contacts.map((c) => {
    const message = byContact.get(c.id);
    const e = message ? byMessage.get(message.id) : undefined;
    const opens = Number(e?.opens ?? 0);
    const clicks = Number(e?.clicks ?? 0);
    return {
      id: c.id,
      email: c.email,
      name: [c.firstName, c.lastName].filter(Boolean).join(' ') || null,
      status: recipientStatus({
        outboxState: message?.state ?? null,
        opens,
        clicks,
        bounced: Boolean(e?.bounced),
        unsubscribed: Boolean(e?.unsubscribed),
        complained: Boolean(e?.complained),
      }),
      sentAt: message?.sentAt ? message.sentAt.toISOString() : null,
      opens,
      clicks,
    };
  });
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listNewsletterRecipients(options: {
  db: Database;
  userId: string;
  id: string;
  query: NewsletterRecipientsQuery;
}): Promise<NewsletterRecipientPage> {
  const { db, query } = options;
  const row = await getNewsletterRow(options);
  if (!row.campaignId) return { items: [], total: 0 };
  const where = and(
    eq(campaignContacts.campaignId, row.campaignId),
    query.q
      ? sql`lower(${campaignContacts.email}) like ${`%${escapeLike(query.q.toLowerCase())}%`}`
      : undefined,
  );
  const [contacts, [total]] = await Promise.all([
    db
      .select({
        id: campaignContacts.id,
        email: campaignContacts.email,
        firstName: campaignContacts.firstName,
        lastName: campaignContacts.lastName,
      })
      .from(campaignContacts)
      .where(where)
      .orderBy(sql`lower(${campaignContacts.email})`)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(campaignContacts).where(where),
  ]);
  return { items: await describeRecipients(db, row, contacts), total: Number(total?.n ?? 0) };
}

const EXPORT_BATCH = 1000;

export function reportFileName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase();
  return `${base || 'newsletter'}-report.csv`;
}

/** Every recipient with their status, streamed in keyset batches (404 before anything is written). */
export async function exportNewsletterReportCsv(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<{ fileName: string; stream: Readable }> {
  const { db } = options;
  const row = await getNewsletterRow(options);
  const csv = stringify({
    header: true,
    columns: ['email', 'name', 'status', 'sent_at', 'opens', 'clicks'],
    bom: true,
  });
  (async () => {
    if (row.campaignId) {
      let after: string | null = null;
      for (;;) {
        const contacts: ContactRow[] = await db
          .select({
            id: campaignContacts.id,
            email: campaignContacts.email,
            firstName: campaignContacts.firstName,
            lastName: campaignContacts.lastName,
          })
          .from(campaignContacts)
          .where(
            and(
              eq(campaignContacts.campaignId, row.campaignId),
              // Keyset on the (campaign, lower(email)) unique index.
              after !== null ? sql`lower(${campaignContacts.email}) > ${after}` : undefined,
            ),
          )
          .orderBy(sql`lower(${campaignContacts.email})`)
          .limit(EXPORT_BATCH);
        if (contacts.length === 0) break;
        for (const r of await describeRecipients(db, row, contacts)) {
          const record = [r.email, r.name ?? '', r.status, r.sentAt ?? '', String(r.opens), String(r.clicks)];
          if (!csv.write(record.map(escapeCsvFormula))) {
            await Promise.race([once(csv, 'drain'), once(csv, 'close')]);
          }
          if (csv.destroyed) return;
        }
        after = contacts[contacts.length - 1]!.email.toLowerCase();
        if (contacts.length < EXPORT_BATCH) break;
      }
    }
    csv.end();
  })().catch((error: unknown) => csv.destroy(error as Error));
  return { fileName: reportFileName(row.name), stream: csv };
}
