import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { Database } from '@server/db/client';
import {
  campaignContacts,
  campaigns,
  emailEvents,
  newsletterReportCounts,
  outboxAll,
} from '@server/db/schema/index';
import { escapeCsvFormula } from '@shared/imports';
import type {
  NewsletterProgress,
  NewsletterRecipientPage,
  NewsletterRecipientRow,
  NewsletterRecipientsQuery,
  NewsletterReport,
  NewsletterReportSummary,
  RecipientReportStatus,
} from '@shared/newsletter-report';
import { stringify } from 'csv-stringify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getNewsletterRow, type NewsletterRow } from './newsletters.service';

/*
 * Progress while a newsletter goes out and its report afterwards. Everything is read through the send's
 * engine campaign with indexed paths: the outbox by (campaign_id, state), the recipients by
 * (campaign_id, lower(email)), the event figures from the counters the email_events trigger keeps
 * (newsletter_report_counts: a hundred rows whatever the number of events), a recipient's messages by
 * campaign_contact_id and their events by outbox_message_id. Another user's newsletter answers 404
 * (getNewsletterRow).
 */

const OUTBOX_FAILED = new Set(['failed', 'bounced', 'suppressed', 'cancelled']);
const LINKS_MAX = 200;
const HOURS = 48;

type CountRow = { metric: string; key: string; url: string | null; n: number };

/*
 * Everything the report and progress show of a send, from the counter rows the triggers of migration
 * *_newsletter_report keep (schema/newsletter-report.ts): a hundred rows or so, read by their primary
 * key whatever the number of recipients and events. The owner check ran before (getNewsletterRow).
 */
async function readCounts(db: Database, campaignId: string): Promise<CountRow[]> {
  const rows = await db
    .select({
      metric: newsletterReportCounts.metric,
      key: newsletterReportCounts.key,
      url: sql<string | null>`max(${newsletterReportCounts.url})`,
      // Each writer's slot of a figure (schema/newsletter-report.ts), added up.
      n: sql<string>`sum(${newsletterReportCounts.n})`,
    })
    .from(newsletterReportCounts)
    .where(eq(newsletterReportCounts.campaignId, campaignId))
    .groupBy(newsletterReportCounts.metric, newsletterReportCounts.key);
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

/** Recipients and the outbox's messages by state (progress while it goes out, the report's first figures). */
function sendFigures(rows: CountRow[]) {
  const counts = { recipients: 0, queued: 0, sent: 0, failed: 0, bounced: 0 };
  for (const row of rows) {
    if (row.metric === 'recipients') counts.recipients += row.n;
    if (row.metric !== 'outbox') continue;
    if (row.key === 'sent') counts.sent += row.n;
    else if (OUTBOX_FAILED.has(row.key)) {
      counts.failed += row.n;
      if (row.key === 'bounced') counts.bounced += row.n;
    } else counts.queued += row.n;
  }
  return counts;
}

export async function getNewsletterProgress(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<NewsletterProgress> {
  const { db } = options;
  const row = await getNewsletterRow(options);
  if (!row.campaignId) {
    return {
      status: row.status,
      preparing: false,
      recipients: 0,
      queued: 0,
      sent: 0,
      failed: 0,
      paused: false,
      pausedReason: null,
    };
  }
  const [[campaign], rows] = await Promise.all([
    db
      .select({
        startedAt: campaigns.startedAt,
        status: campaigns.status,
        pausedReason: campaigns.pausedReason,
      })
      .from(campaigns)
      .where(eq(campaigns.id, row.campaignId))
      .limit(1),
    readCounts(db, row.campaignId),
  ]);
  const counts = sendFigures(rows);
  // Only a send in progress is paused (toNewsletterDto): a sent one's campaign has ended.
  const paused = row.status === 'sending' && campaign?.status === 'paused';
  return {
    status: row.status,
    preparing: row.status === 'sending' && !campaign?.startedAt,
    recipients: counts.recipients,
    queued: counts.queued,
    sent: counts.sent,
    failed: counts.failed,
    paused,
    pausedReason: paused ? (campaign?.pausedReason ?? null) : null,
  };
}

const COUNTER_METRICS = {
  opens: 'opens',
  unique_opens: 'uniqueOpens',
  machine_opens: 'machineOpens',
  clicks: 'clicks',
  unique_clickers: 'uniqueClickers',
  machine_clicks: 'machineClicks',
  bounces: 'bounces',
  unsubscribes: 'unsubscribes',
  complaints: 'complaints',
} as const;

type EventFigures = Pick<NewsletterReportSummary, (typeof COUNTER_METRICS)[keyof typeof COUNTER_METRICS]>;

function emptyHours() {
  return Array.from({ length: HOURS }, (_, hour) => ({ hour, opens: 0, clicks: 0 }));
}

/** Opens, clicks, bounces…, the links and the 48 hours, from the counters the email_events trigger keeps. */
function eventFigures(rows: CountRow[]) {
  const events: EventFigures = {
    opens: 0,
    uniqueOpens: 0,
    machineOpens: 0,
    clicks: 0,
    uniqueClickers: 0,
    machineClicks: 0,
    bounces: 0,
    unsubscribes: 0,
    complaints: 0,
  };
  const hours = emptyHours();
  const links = new Map<string, { url: string | null; clicks: number; unique: number }>();
  const linkOf = (key: string) => {
    let link = links.get(key);
    if (!link) {
      link = { url: null, clicks: 0, unique: 0 };
      links.set(key, link);
    }
    return link;
  };
  for (const row of rows) {
    const { n } = row;
    if (row.metric in COUNTER_METRICS) {
      events[COUNTER_METRICS[row.metric as keyof typeof COUNTER_METRICS]] = n;
    } else if (row.metric === 'link_clicks') {
      const link = linkOf(row.key);
      link.clicks = n;
      link.url = row.url;
    } else if (row.metric === 'link_unique') {
      linkOf(row.key).unique = n;
    } else if (row.metric === 'hour_opens' || row.metric === 'hour_clicks') {
      const slot = hours[Number(row.key)];
      if (!slot) continue;
      if (row.metric === 'hour_opens') slot.opens = n;
      else slot.clicks = n;
    }
  }
  const linkList = [...links.values()]
    .filter((l): l is { url: string; clicks: number; unique: number } => l.url !== null)
    .sort((a, b) => b.clicks - a.clicks || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
    .slice(0, LINKS_MAX);
  return { events, links: linkList, hours };
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

export async function getNewsletterReport(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<NewsletterReport> {
  const row = await getNewsletterRow(options);
  return computeReport(options.db, row);
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
    return { ...base, summary: EMPTY_SUMMARY, links: [], hours: emptyHours() };
  }
  const rows = await readCounts(db, row.campaignId);
  const sendCounts = sendFigures(rows);
  const { events, links, hours } = eventFigures(rows);
  // A bounce reported after the server accepted the message (a bounce email) leaves it 'sent' in the
  // outbox: it was not delivered either.
  const lateBounces = Math.max(0, events.bounces - sendCounts.bounced);
  return {
    ...base,
    summary: {
      recipients: sendCounts.recipients,
      delivered: Math.max(0, sendCounts.sent - lateBounces),
      failed: sendCounts.failed,
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
      id: outboxAll.id,
      contactId: outboxAll.campaignContactId,
      state: outboxAll.state,
      sentAt: outboxAll.sentAt,
    })
    .from(outboxAll)
    .where(inArray(outboxAll.campaignContactId, ids));
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
  if (!row.campaignId) return { items: [], total: 0, next: null };
  const where = and(
    eq(campaignContacts.campaignId, row.campaignId),
    query.q
      ? sql`lower(${campaignContacts.email}) like ${`%${escapeLike(query.q.toLowerCase())}%`}`
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: campaignContacts.id,
        email: campaignContacts.email,
        firstName: campaignContacts.firstName,
        lastName: campaignContacts.lastName,
        key: sql<string>`lower(${campaignContacts.email})`,
      })
      .from(campaignContacts)
      .where(
        // Keyset on the (campaign, lower(email)) unique index; else the page by its number.
        query.after !== undefined
          ? and(where, sql`lower(${campaignContacts.email}) > ${query.after}`)
          : where,
      )
      .orderBy(sql`lower(${campaignContacts.email})`)
      .limit(query.pageSize + 1)
      .offset(query.after !== undefined ? 0 : (query.page - 1) * query.pageSize),
    // Without a search the total is the recipients counter; a search counts its matches.
    query.q
      ? db.select({ n: sql<number>`count(*)::int` }).from(campaignContacts).where(where)
      : db
          .select({ n: sql<string>`coalesce(sum(${newsletterReportCounts.n}), 0)` })
          .from(newsletterReportCounts)
          .where(
            and(
              eq(newsletterReportCounts.campaignId, row.campaignId),
              eq(newsletterReportCounts.metric, 'recipients'),
              eq(newsletterReportCounts.key, ''),
            ),
          ),
  ]);
  const contacts = rows.slice(0, query.pageSize);
  return {
    items: await describeRecipients(db, row, contacts),
    total: Number(total?.n ?? 0),
    next: rows.length > query.pageSize ? contacts[contacts.length - 1]!.key : null,
  };
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
