import type { Database } from '@server/db/client';
import {
  campaignContacts,
  campaignSteps,
  campaignStepVariants,
  campaigns,
  emailEvents,
  inboundMessages,
  outboxAll,
  outboxMessages,
} from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { notFound } from '@server/lib/errors';
import {
  type CampaignContactItem,
  type CampaignContactPage,
  type CampaignContactsQuery,
  type CampaignReply,
  type CampaignStats,
  type ContactStatusCounts,
  type Counts,
  emptyCounts,
  type MarkWonInput,
  REPLY_KINDS,
  type TimelineEntry,
} from '@shared/campaign-stats';
import type { InboundKind } from '@shared/inbound';
import { canMarkWon } from '@shared/inbox';
import { CAMPAIGN_CONTACT_STATUSES, type EmailEventType } from '@shared/sending';
import { and, asc, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';

/*
 * What the campaign page shows: counts from email_events (read through the (campaign_id, type,
 * occurred_at) index), contacts from campaign_contacts, a contact's history through its outbox messages
 * (outbox_messages(campaign_contact_id) → email_events(outbox_message_id), both indexed), replies and
 * the "won" mark analytics turns into revenue.
 *
 * `userId: null` is a super admin looking at any owner's campaign (the admin twins); otherwise a campaign
 * of another user answers 404.
 */

type Owner = string | null;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The campaign if it is the caller's (any owner's for `userId: null`), else 404. */
export async function getOwnedCampaign(options: { db: Database; userId: Owner; id: string }) {
  const conditions: SQL[] = [eq(campaigns.id, options.id), isNull(campaigns.deletedAt)];
  if (options.userId !== null) conditions.push(eq(campaigns.userId, options.userId));
  const [row] = await options.db
    .select({
      id: campaigns.id,
      userId: campaigns.userId,
      kind: campaigns.kind,
      status: campaigns.status,
    })
    .from(campaigns)
    .where(and(...conditions))
    .limit(1);
  if (!row) throw notFound('Campaign not found');
  return row;
}

// ---------------------------------------------------------------------------------------------------
// Counts

const COUNTED_TYPES: EmailEventType[] = [
  'sent',
  'opened',
  'clicked',
  'replied',
  'bounced',
  'unsubscribed',
  'complained',
  'failed',
];

/**
 * The count columns of one grouped row over `email_events e`, by the definitions in
 * shared/campaign-stats.ts (analytics groups the same columns by day and campaign).
 */
export const COUNT_COLUMNS = sql`
  count(DISTINCT e.outbox_message_id) FILTER (WHERE e.type = 'sent')::int AS sent,
  count(DISTINCT e.outbox_message_id) FILTER (WHERE e.type = 'opened')::int AS opened,
  count(DISTINCT e.outbox_message_id) FILTER (WHERE e.type = 'opened' AND NOT e.machine)::int AS opened_human,
  count(DISTINCT e.outbox_message_id) FILTER (WHERE e.type = 'clicked' AND NOT e.machine)::int AS clicked,
  count(DISTINCT e.campaign_contact_id) FILTER (WHERE e.type = 'replied')::int AS replied,
  count(DISTINCT e.outbox_message_id) FILTER (WHERE e.type = 'bounced')::int AS bounced,
  count(DISTINCT e.campaign_contact_id) FILTER (WHERE e.type IN ('unsubscribed', 'complained'))::int AS unsubscribed,
  count(DISTINCT e.outbox_message_id) FILTER (WHERE e.type = 'failed')::int AS failed`;

export interface CountRow {
  sent: number;
  opened: number;
  opened_human: number;
  clicked: number;
  replied: number;
  bounced: number;
  unsubscribed: number;
  failed: number;
}

export function toCounts(row: CountRow | undefined): Counts {
  if (!row) return emptyCounts();
  return {
    sent: Number(row.sent),
    opened: Number(row.opened),
    openedHuman: Number(row.opened_human),
    clicked: Number(row.clicked),
    replied: Number(row.replied),
    bounced: Number(row.bounced),
    unsubscribed: Number(row.unsubscribed),
    failed: Number(row.failed),
  };
}

function addCounts(a: Counts, b: Counts): Counts {
  const out = { ...a };
  for (const key of Object.keys(out) as (keyof Counts)[]) out[key] += b[key];
  return out;
}

/** `e.type IN (${COUNTED_TYPE_LIST})` keeps a read to the event types the counts use. */
export const COUNTED_TYPE_LIST = sql.join(
  COUNTED_TYPES.map((t) => sql`${t}`),
  sql`, `,
);

/**
 * All-time totals of several campaigns at once (list pages, dashboard), from the analytics_daily roll-up
 * (schema/analytics.ts): the subjects whose last event of a kind falls on some day are its distinct
 * count, so the sums equal COUNT_COLUMNS over the campaign's events.
 */
export async function countsByCampaign(options: {
  db: Database;
  campaignIds: string[];
}): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>();
  if (options.campaignIds.length === 0) return out;
  const ids = sql.join(
    options.campaignIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await options.db.execute(sql`
    SELECT r.campaign_id::text AS campaign_id,
      sum(r.sent_last)::int AS sent, sum(r.opened_last)::int AS opened,
      sum(r.opened_human_last)::int AS opened_human, sum(r.clicked_last)::int AS clicked,
      sum(r.replied_last)::int AS replied, sum(r.bounced_last)::int AS bounced,
      sum(r.unsubscribed_last)::int AS unsubscribed, sum(r.failed_last)::int AS failed
    FROM analytics_daily r
    WHERE r.campaign_id IN (${ids})
    GROUP BY r.campaign_id`);
  for (const row of rowsOf<CountRow & { campaign_id: string }>(result)) {
    out.set(row.campaign_id, toCounts(row));
  }
  return out;
}

async function contactStatusCounts(db: Database, campaignId: string): Promise<ContactStatusCounts> {
  const rows = await db
    .select({ status: campaignContacts.status, n: sql<number>`count(*)::int` })
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, campaignId))
    .groupBy(campaignContacts.status);
  const counts = Object.fromEntries(CAMPAIGN_CONTACT_STATUSES.map((s) => [s, 0])) as Omit<
    ContactStatusCounts,
    'total'
  >;
  let total = 0;
  for (const row of rows) {
    counts[row.status] = Number(row.n);
    total += Number(row.n);
  }
  return { total, ...counts };
}

export async function getCampaignStats(options: {
  db: Database;
  userId: Owner;
  campaignId: string;
}): Promise<CampaignStats> {
  const { db } = options;
  const campaign = await getOwnedCampaign({ db, userId: options.userId, id: options.campaignId });
  const id = campaign.id;

  const [grouped, steps, variants, contacts, outbox] = await Promise.all([
    db.execute(sql`
      SELECT grouping(e.step_id, o.variant_key)::int AS g, e.step_id::text AS step_id,
             o.variant_key, ${COUNT_COLUMNS}
      FROM email_events e
      LEFT JOIN outbox_all o ON o.id = e.outbox_message_id
      WHERE e.campaign_id = ${id}::uuid AND e.type IN (${COUNTED_TYPE_LIST})
      GROUP BY GROUPING SETS ((), (e.step_id, o.variant_key))`),
    db
      .select({ id: campaignSteps.id, position: campaignSteps.position })
      .from(campaignSteps)
      .where(eq(campaignSteps.campaignId, id))
      .orderBy(asc(campaignSteps.position)),
    db
      .select({ stepId: campaignStepVariants.stepId, key: campaignStepVariants.key })
      .from(campaignStepVariants)
      .where(eq(campaignStepVariants.campaignId, id))
      .orderBy(asc(campaignStepVariants.key)),
    contactStatusCounts(db, id),
    db
      .select({
        queued: sql<number>`count(*) FILTER (WHERE ${outboxMessages.state} IN ('queued', 'sending'))::int`,
        total: sql<number>`count(*)::int`,
        queuedSteps: sql<number>`count(DISTINCT (${outboxMessages.campaignContactId}, ${outboxMessages.stepId})) FILTER (WHERE ${outboxMessages.state} IN ('queued', 'sending'))::int`,
      })
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, id)),
  ]);

  const rows = rowsOf<CountRow & { g: number; step_id: string | null; variant_key: string | null }>(grouped);
  const totals = toCounts(rows.find((r) => Number(r.g) !== 0));
  const byStepVariant = new Map<string, Counts>();
  for (const row of rows) {
    if (Number(row.g) !== 0 || !row.step_id) continue;
    byStepVariant.set(`${row.step_id}|${row.variant_key ?? ''}`, toCounts(row));
  }

  const stepStats = steps.map((step) => {
    const keys = variants.filter((v) => v.stepId === step.id).map((v) => v.key as string);
    // Messages recorded under a variant since removed still count for the step and keep their row.
    for (const k of byStepVariant.keys()) {
      const [stepId, key] = k.split('|');
      if (stepId === step.id && key && !keys.includes(key)) keys.push(key);
    }
    let stepTotals = byStepVariant.get(`${step.id}|`) ?? emptyCounts();
    const variantStats = keys.map((key) => {
      const counts = byStepVariant.get(`${step.id}|${key}`) ?? emptyCounts();
      stepTotals = addCounts(stepTotals, counts);
      return { key, ...counts };
    });
    return { stepId: step.id, position: step.position, totals: stepTotals, variants: variantStats };
  });

  const queued = Number(outbox[0]?.queued ?? 0);
  return {
    totals,
    steps: stepStats,
    contacts,
    queued,
    progressPercent: progressOf({
      status: campaign.status,
      stepCount: steps.length,
      contacts,
      stepsQueuedOrDone: await stepsReached(db, id, steps.length),
      queuedSteps: Number(outbox[0]?.queuedSteps ?? 0),
      messages: Number(outbox[0]?.total ?? 0),
      queued,
    }),
  };
}

/** Sum over active and paused contacts of the steps they have reached (at most the step count). */
async function stepsReached(db: Database, campaignId: string, stepCount: number): Promise<number> {
  if (stepCount === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(least(${campaignContacts.currentStep}, ${stepCount})), 0)::int` })
    .from(campaignContacts)
    .where(
      and(
        eq(campaignContacts.campaignId, campaignId),
        inArray(campaignContacts.status, ['active', 'paused']),
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * How much of the work is done, 0–100. A sequence: each contact counts for its steps; a contact whose
 * sequence ended (replied, completed, bounced…) counts whole, one still going counts the steps already
 * sent. A newsletter or bulk send (no steps): messages no longer waiting over all messages.
 */
export function progressOf(input: {
  status: string;
  stepCount: number;
  contacts: ContactStatusCounts;
  stepsQueuedOrDone: number;
  queuedSteps: number;
  messages: number;
  queued: number;
}): number {
  if (input.status === 'completed') return 100;
  let ratio: number;
  if (input.stepCount === 0) {
    ratio = input.messages === 0 ? 0 : (input.messages - input.queued) / input.messages;
  } else {
    const total = input.contacts.total;
    if (total === 0) return 0;
    const ongoing = input.contacts.active + input.contacts.paused;
    const ended = total - ongoing;
    const stepsDone = Math.max(0, input.stepsQueuedOrDone - input.queuedSteps);
    ratio = (ended + stepsDone / input.stepCount) / total;
  }
  return Math.round(Math.min(1, Math.max(0, ratio)) * 1000) / 10;
}

// ---------------------------------------------------------------------------------------------------
// Contacts

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const iso = (d: Date | string | null | undefined) =>
  d == null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString();

type ContactRow = typeof campaignContacts.$inferSelect;

/** paused_until is kept after the contact moves on; it only means something while they are paused. */
const pausedUntilOf = (row: Pick<ContactRow, 'status' | 'pausedUntil'>) =>
  row.status === 'paused' ? iso(row.pausedUntil) : null;

function toContactItem(row: ContactRow, lastEventAt: Date | string | null): CampaignContactItem {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    status: row.status,
    currentStep: row.currentStep,
    nextStepAt: iso(row.nextStepAt),
    pausedUntil: pausedUntilOf(row),
    lastEventAt: iso(lastEventAt),
    wonAt: iso(row.wonAt),
    dealValue: row.dealValue,
    dealCurrency: row.dealCurrency,
  };
}

/** The newest event of each contact, through their outbox messages (indexed both ways). */
async function lastEventAtOf(db: Database, contactIds: string[]): Promise<Map<string, Date | string>> {
  const out = new Map<string, Date | string>();
  if (contactIds.length === 0) return out;
  const rows = await db
    .select({ contactId: outboxAll.campaignContactId, at: sql<string>`max(${emailEvents.occurredAt})` })
    .from(outboxAll)
    .innerJoin(emailEvents, eq(emailEvents.outboxMessageId, outboxAll.id))
    .where(inArray(outboxAll.campaignContactId, contactIds))
    .groupBy(outboxAll.campaignContactId);
  for (const row of rows) if (row.at) out.set(row.contactId, row.at);
  return out;
}

/** The campaign's contacts in address order (keyset on the campaign's (campaign_id, lower(email)) key). */
export async function listCampaignContacts(options: {
  db: Database;
  userId: Owner;
  campaignId: string;
  query: CampaignContactsQuery;
}): Promise<CampaignContactPage> {
  const { db, query } = options;
  const campaign = await getOwnedCampaign({ db, userId: options.userId, id: options.campaignId });
  const after = decodeCursor('campaign-contacts', query.cursor, 1);
  const emailKey = sql<string>`lower(${campaignContacts.email})`;
  const conditions: SQL[] = [eq(campaignContacts.campaignId, campaign.id)];
  if (query.status) conditions.push(eq(campaignContacts.status, query.status));
  if (after) conditions.push(gt(emailKey, String(after[0])));
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    conditions.push(
      or(
        sql`${campaignContacts.email} ILIKE ${pattern}`,
        sql`${campaignContacts.firstName} ILIKE ${pattern}`,
        sql`${campaignContacts.lastName} ILIKE ${pattern}`,
        sql`${campaignContacts.company} ILIKE ${pattern}`,
        sql`(${campaignContacts.firstName} || ' ' || ${campaignContacts.lastName}) ILIKE ${pattern}`,
      )!,
    );
  }
  const rows = await db
    .select({ row: campaignContacts, key: emailKey })
    .from(campaignContacts)
    .where(and(...conditions))
    .orderBy(asc(emailKey))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const lastEvents = await lastEventAtOf(
    db,
    page.map((r) => r.row.id),
  );
  return {
    items: page.map((r) => toContactItem(r.row, lastEvents.get(r.row.id) ?? null)),
    nextCursor: rows.length > query.limit && last ? encodeCursor('campaign-contacts', [last.key]) : null,
  };
}

async function getContactRow(db: Database, campaignId: string, contactId: string): Promise<ContactRow> {
  const [row] = await db
    .select()
    .from(campaignContacts)
    .where(and(eq(campaignContacts.id, contactId), eq(campaignContacts.campaignId, campaignId)))
    .limit(1);
  if (!row) throw notFound('Contact not found in this campaign');
  return row;
}

/**
 * A contact's history, oldest first: every event of their messages, then the messages still waiting
 * (type `queued`, dated when they may go).
 */
export async function getContactTimeline(options: {
  db: Database;
  userId: Owner;
  campaignId: string;
  contactId: string;
}): Promise<TimelineEntry[]> {
  const { db } = options;
  const campaign = await getOwnedCampaign({ db, userId: options.userId, id: options.campaignId });
  const contact = await getContactRow(db, campaign.id, options.contactId);
  const [events, waiting] = await Promise.all([
    db
      .select({
        type: emailEvents.type,
        occurredAt: emailEvents.occurredAt,
        detail: emailEvents.detail,
        machine: emailEvents.machine,
        position: campaignSteps.position,
        variantKey: outboxAll.variantKey,
      })
      .from(outboxAll)
      .innerJoin(emailEvents, eq(emailEvents.outboxMessageId, outboxAll.id))
      .leftJoin(campaignSteps, eq(campaignSteps.id, outboxAll.stepId))
      .where(eq(outboxAll.campaignContactId, contact.id))
      .orderBy(asc(emailEvents.occurredAt), asc(emailEvents.id)),
    db
      .select({
        sendAfter: outboxMessages.sendAfter,
        position: campaignSteps.position,
        variantKey: outboxMessages.variantKey,
        lastError: outboxMessages.lastError,
      })
      .from(outboxMessages)
      .leftJoin(campaignSteps, eq(campaignSteps.id, outboxMessages.stepId))
      .where(and(eq(outboxMessages.campaignContactId, contact.id), eq(outboxMessages.state, 'queued')))
      .orderBy(asc(outboxMessages.sendAfter)),
  ]);
  return [
    ...events.map((e) => ({
      type: e.type,
      occurredAt: e.occurredAt.toISOString(),
      stepPosition: e.position ?? null,
      variantKey: e.variantKey ?? null,
      detail: e.detail,
      machine: e.machine,
    })),
    ...waiting.map((w) => ({
      type: 'queued' as const,
      occurredAt: w.sendAfter.toISOString(),
      stepPosition: w.position ?? null,
      variantKey: w.variantKey ?? null,
      detail: w.lastError ? `Waiting: ${w.lastError}` : 'Waiting to be sent',
      machine: false,
    })),
  ];
}

// ---------------------------------------------------------------------------------------------------
// Replies and "won"

export async function listCampaignReplies(options: {
  db: Database;
  userId: Owner;
  campaignId: string;
  kind?: (typeof REPLY_KINDS)[number];
  limit: number;
}): Promise<CampaignReply[]> {
  const { db } = options;
  const campaign = await getOwnedCampaign({ db, userId: options.userId, id: options.campaignId });
  const rows = await db
    .select({
      message: inboundMessages,
      contactEmail: campaignContacts.email,
      firstName: campaignContacts.firstName,
      lastName: campaignContacts.lastName,
      status: campaignContacts.status,
      pausedUntil: campaignContacts.pausedUntil,
      wonAt: campaignContacts.wonAt,
      dealValue: campaignContacts.dealValue,
      dealCurrency: campaignContacts.dealCurrency,
    })
    .from(inboundMessages)
    .leftJoin(campaignContacts, eq(campaignContacts.id, inboundMessages.campaignContactId))
    .where(
      and(
        eq(inboundMessages.campaignId, campaign.id),
        options.kind
          ? eq(inboundMessages.kind, options.kind)
          : inArray(inboundMessages.kind, [...REPLY_KINDS]),
      ),
    )
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
    .limit(options.limit);
  return rows.map((r) => {
    const name = [r.firstName, r.lastName].filter((p) => p?.trim()).join(' ');
    return {
      id: r.message.id,
      campaignContactId: r.message.campaignContactId,
      email: r.contactEmail ?? r.message.fromAddress,
      name: name || null,
      subject: r.message.subject,
      text: r.message.textBody,
      receivedAt: r.message.receivedAt.toISOString(),
      kind: r.message.kind as InboundKind,
      category: r.message.category ?? null,
      canMarkWon:
        r.message.campaignContactId !== null &&
        canMarkWon({ category: r.message.category ?? null, kind: r.message.kind as InboundKind }),
      pausedUntil: r.status ? pausedUntilOf({ status: r.status, pausedUntil: r.pausedUntil }) : null,
      wonAt: iso(r.wonAt),
      dealValue: r.dealValue,
      dealCurrency: r.dealCurrency,
    };
  });
}

/** Marks a contact as won with the deal's value (analytics: conversions, revenue, ROI). Re-marking
 * changes the value and keeps the first date. */
export async function markContactWon(options: {
  db: Database;
  userId: Owner;
  campaignId: string;
  contactId: string;
  input: MarkWonInput;
}): Promise<CampaignContactItem> {
  const { db } = options;
  const campaign = await getOwnedCampaign({ db, userId: options.userId, id: options.campaignId });
  const at = now();
  const [row] = await db
    .update(campaignContacts)
    .set({
      wonAt: sql`coalesce(${campaignContacts.wonAt}, ${at.toISOString()}::timestamptz)`,
      dealValue: options.input.dealValue.toFixed(2),
      dealCurrency: options.input.currency,
      updatedAt: at,
    })
    .where(and(eq(campaignContacts.id, options.contactId), eq(campaignContacts.campaignId, campaign.id)))
    .returning();
  if (!row) throw notFound('Contact not found in this campaign');
  const last = await lastEventAtOf(db, [row.id]);
  return toContactItem(row, last.get(row.id) ?? null);
}

export async function unmarkContactWon(options: {
  db: Database;
  userId: Owner;
  campaignId: string;
  contactId: string;
}): Promise<CampaignContactItem> {
  const { db } = options;
  const campaign = await getOwnedCampaign({ db, userId: options.userId, id: options.campaignId });
  const [row] = await db
    .update(campaignContacts)
    .set({ wonAt: null, dealValue: null, dealCurrency: null, updatedAt: now() })
    .where(and(eq(campaignContacts.id, options.contactId), eq(campaignContacts.campaignId, campaign.id)))
    .returning();
  if (!row) throw notFound('Contact not found in this campaign');
  const last = await lastEventAtOf(db, [row.id]);
  return toContactItem(row, last.get(row.id) ?? null);
}
