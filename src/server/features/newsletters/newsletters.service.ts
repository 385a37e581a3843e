import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '@server/db/client';
import { campaigns, newsletterReportCounts, newsletters } from '@server/db/schema/index';
import { now, startOfUtcMonth } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { renderNewsletter } from '@shared/newsletter-render';
import {
  NEWSLETTER_MESSAGES,
  type Newsletter,
  type NewsletterBlock,
  type NewsletterCreateSchemaOutput,
  type NewsletterKind,
  type NewsletterStats,
  newsletterBlocksSchema,
  starterBlocks,
} from '@shared/newsletters';
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { assertOwnLists } from '../lists/lists.service';
import { assertWithinLimit } from '../plans/plan-limits.service';
import { segmentFilters } from '../segments/segments.service';
import { assertOwnSenderAccounts } from '../sender-accounts/sender-accounts.service';
import { bulkText, sanitizeBulkHtml } from './bulk-html';

/*
 * Newsletters and bulk emails as documents: create (within the plan's monthly allowance), edit while
 * they are drafts or scheduled, duplicate, delete. Sending is newsletter-send.service.ts.
 */

export type NewsletterRow = typeof newsletters.$inferSelect;

const EDITABLE = new Set<NewsletterRow['status']>(['draft', 'scheduled']);

function newWebToken(): string {
  return randomBytes(18).toString('base64url');
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function webUrlOf(appUrl: string, row: Pick<NewsletterRow, 'webToken'>): string {
  return `${appUrl}/n/${row.webToken}`;
}

export function toNewsletterDto(
  row: NewsletterRow,
  options: {
    appUrl: string;
    recipientCount?: number;
    stats?: NewsletterStats;
    /** Its campaign's pause, when it is paused (sendPauses). */
    pause?: { reason: string | null };
  },
): Newsletter {
  // Only a send in progress is paused: a sent one's campaign is completed or stopped.
  const paused = row.status === 'sending' && options.pause !== undefined;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    blocks: row.blocks ?? null,
    html: row.html,
    text: row.text,
    status: row.status,
    listIds: row.listIds,
    segmentIds: row.segmentIds,
    senderAccountIds: row.senderAccountIds,
    scheduledAt: iso(row.scheduledAt),
    sentAt: iso(row.sentAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    webUrl: webUrlOf(options.appUrl, row),
    inArchive: row.inArchive,
    recipientCount: options.recipientCount ?? 0,
    ...(options.stats ? { stats: options.stats } : {}),
    paused,
    pausedReason: paused ? (options.pause?.reason ?? null) : null,
  };
}

/**
 * The paused ones among these sends' campaigns, with why (campaign-health.ts, a suspension, or by hand
 * through the campaign routes): one read by primary key. The callers read the newsletters by owner.
 */
export async function sendPauses(
  db: Database,
  campaignIds: string[],
): Promise<Map<string, { reason: string | null }>> {
  const pauses = new Map<string, { reason: string | null }>();
  if (campaignIds.length === 0) return pauses;
  const rows = await db
    .select({ id: campaigns.id, reason: campaigns.pausedReason })
    .from(campaigns)
    .where(and(inArray(campaigns.id, campaignIds), eq(campaigns.status, 'paused')));
  for (const row of rows) pauses.set(row.id, { reason: row.reason });
  return pauses;
}

/**
 * Recipients and engagement of sent newsletters, by their engine campaign: from the counters the triggers
 * of migration *_newsletter_report keep (a few rows per send), as the report reads them. Counting the
 * recipients and the events themselves read every row of a send on each load of the newsletter or the
 * list, seconds for a million recipients while the page polls it. The rows are the owner's (the
 * callers read them by user).
 */
export async function loadSendFigures(
  db: Database,
  campaignIds: string[],
): Promise<Map<string, { recipients: number; stats: NewsletterStats }>> {
  const figures = new Map<string, { recipients: number; stats: NewsletterStats }>();
  if (campaignIds.length === 0) return figures;
  for (const id of campaignIds) {
    figures.set(id, { recipients: 0, stats: { sent: 0, opened: 0, clicked: 0, unsubscribed: 0 } });
  }
  const rows = await db
    .select({
      campaignId: newsletterReportCounts.campaignId,
      metric: newsletterReportCounts.metric,
      key: newsletterReportCounts.key,
      // Each writer's slot of a figure (schema/newsletter-report.ts), added up.
      n: sql<string>`sum(${newsletterReportCounts.n})`,
    })
    .from(newsletterReportCounts)
    .where(
      and(
        inArray(newsletterReportCounts.campaignId, campaignIds),
        inArray(newsletterReportCounts.metric, [...SEND_FIGURE_METRICS]),
      ),
    )
    .groupBy(newsletterReportCounts.campaignId, newsletterReportCounts.metric, newsletterReportCounts.key);
  for (const row of rows) {
    const entry = figures.get(row.campaignId)!;
    const n = Number(row.n);
    if (row.metric === 'recipients') entry.recipients += n;
    // Every message the engine sent wrote one 'sent' event: the outbox's 'sent' count is their number.
    else if (row.metric === 'outbox') entry.stats.sent += row.key === 'sent' ? n : 0;
    else if (row.metric === 'unique_opens') entry.stats.opened = n;
    else if (row.metric === 'unique_clickers') entry.stats.clicked = n;
    else if (row.metric === 'unsubscribes') entry.stats.unsubscribed = n;
  }
  return figures;
}

/** People, not machines, for opens and clicks; each recipient once (newsletter_report_counts). */
const SEND_FIGURE_METRICS = [
  'recipients',
  'outbox',
  'unique_opens',
  'unique_clickers',
  'unsubscribes',
] as const;

async function toDtos(db: Database, appUrl: string, rows: NewsletterRow[]): Promise<Newsletter[]> {
  const campaignIds = rows.flatMap((row) => (row.campaignId ? [row.campaignId] : []));
  const sendingIds = rows.flatMap((row) =>
    row.campaignId && row.status === 'sending' ? [row.campaignId] : [],
  );
  const [figures, pauses] = await Promise.all([loadSendFigures(db, campaignIds), sendPauses(db, sendingIds)]);
  return rows.map((row) => {
    const figure = row.campaignId ? figures.get(row.campaignId) : undefined;
    return toNewsletterDto(row, {
      appUrl,
      recipientCount: figure?.recipients ?? 0,
      stats: figure?.stats,
      pause: row.campaignId ? pauses.get(row.campaignId) : undefined,
    });
  });
}

export async function newsletterDto(db: Database, appUrl: string, row: NewsletterRow): Promise<Newsletter> {
  return (await toDtos(db, appUrl, [row]))[0]!;
}

export async function listNewsletters(options: {
  db: Database;
  appUrl: string;
  userId: string;
  kind?: NewsletterKind;
}): Promise<Newsletter[]> {
  const rows = await options.db
    .select()
    .from(newsletters)
    .where(
      and(
        eq(newsletters.userId, options.userId),
        isNull(newsletters.deletedAt),
        options.kind ? eq(newsletters.kind, options.kind) : undefined,
      ),
    )
    .orderBy(desc(newsletters.createdAt), desc(newsletters.id))
    .limit(500);
  return toDtos(options.db, options.appUrl, rows);
}

/** The owner's newsletter; another user's id answers 404. */
export async function getNewsletterRow(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<NewsletterRow> {
  const [row] = await options.db
    .select()
    .from(newsletters)
    .where(
      and(
        eq(newsletters.id, options.id),
        eq(newsletters.userId, options.userId),
        isNull(newsletters.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound(NEWSLETTER_MESSAGES.notFound);
  return row;
}

/** Any user's newsletter (admin views); one in the recycle bin is not found. */
export async function getNewsletterRowById(options: { db: Database; id: string }): Promise<NewsletterRow> {
  const [row] = await options.db
    .select()
    .from(newsletters)
    .where(and(eq(newsletters.id, options.id), isNull(newsletters.deletedAt)))
    .limit(1);
  if (!row) throw notFound(NEWSLETTER_MESSAGES.notFound);
  return row;
}

export async function getNewsletter(options: {
  db: Database;
  appUrl: string;
  userId: string;
  id: string;
}): Promise<Newsletter> {
  return newsletterDto(options.db, options.appUrl, await getNewsletterRow(options));
}

/** Newsletters and bulk emails created this calendar month count against the plan's monthly allowance. */
export async function countNewslettersThisMonth(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(newsletters)
    .where(
      and(
        eq(newsletters.userId, userId),
        // A deleted one frees its place, as it did when deleting was for good.
        isNull(newsletters.deletedAt),
        gte(newsletters.createdAt, startOfUtcMonth(now())),
      ),
    );
  return Number(row?.n ?? 0);
}

async function assertNewsletterAllowance(db: Database, userId: string): Promise<void> {
  await assertWithinLimit({
    db,
    userId,
    limit: 'newsletters',
    used: await countNewslettersThisMonth(db, userId),
  });
}

/** The stored body of either kind: rendered blocks, or the cleaned rich text. */
function contentColumns(input: {
  kind: NewsletterKind;
  subject: string;
  preheader: string;
  blocks: NewsletterBlock[] | null;
  html: string;
}): { blocks: NewsletterBlock[] | null; html: string; text: string } {
  if (input.kind === 'newsletter') {
    const blocks = input.blocks ?? [];
    return { blocks, ...renderNewsletter({ subject: input.subject, preheader: input.preheader, blocks }) };
  }
  const html = sanitizeBulkHtml(input.html);
  return { blocks: null, html, text: bulkText(html) };
}

export async function createNewsletter(options: {
  db: Database;
  appUrl: string;
  userId: string;
  input: NewsletterCreateSchemaOutput;
}): Promise<Newsletter> {
  const { db, userId, input } = options;
  await assertNewsletterAllowance(db, userId);
  const at = now();
  const content = contentColumns({
    kind: input.kind,
    subject: input.subject,
    preheader: input.preheader,
    blocks: input.kind === 'newsletter' ? (input.blocks ?? starterBlocks(() => randomUUID())) : null,
    html: input.html ?? '',
  });
  const [row] = await db
    .insert(newsletters)
    .values({
      userId,
      kind: input.kind,
      name: input.name,
      subject: input.subject,
      preheader: input.preheader,
      ...content,
      webToken: newWebToken(),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return newsletterDto(db, options.appUrl, row!);
}

export async function updateNewsletter(options: {
  db: Database;
  appUrl: string;
  userId: string;
  id: string;
  input: {
    name?: string;
    subject?: string;
    preheader?: string;
    blocks?: NewsletterBlock[];
    html?: string;
    listIds?: string[];
    segmentIds?: string[];
    senderAccountIds?: string[];
    inArchive?: boolean;
  };
}): Promise<Newsletter> {
  const { db, input } = options;
  const row = await getNewsletterRow(options);
  const { inArchive, ...edits } = input;
  // The archive switch alone may change at any status: sent issues are what the archive lists.
  if (inArchive !== undefined && Object.values(edits).every((value) => value === undefined)) {
    const [updated] = await db
      .update(newsletters)
      .set({ inArchive, updatedAt: now() })
      .where(and(eq(newsletters.id, row.id), eq(newsletters.userId, options.userId)))
      .returning();
    return newsletterDto(db, options.appUrl, updated!);
  }
  if (!EDITABLE.has(row.status)) throw new AppError('conflict', NEWSLETTER_MESSAGES.notEditable);
  // Sending checks them again (a list may be deleted meanwhile); another account's ids are refused here.
  await assertOwnLists({ db, userId: options.userId, ids: input.listIds ?? [], path: 'listIds' });
  if (input.segmentIds) {
    const listIds = input.listIds ?? row.listIds;
    await segmentFilters({ db, userId: options.userId, listIds, segmentIds: input.segmentIds });
  }
  await assertOwnSenderAccounts({
    db,
    userId: options.userId,
    ids: input.senderAccountIds ?? [],
    path: 'senderAccountIds',
  });
  const subject = input.subject ?? row.subject;
  const preheader = input.preheader ?? row.preheader;
  const storedBlocks = row.kind === 'newsletter' ? parseStoredBlocks(row.blocks) : null;
  const content = contentColumns({
    kind: row.kind,
    subject,
    preheader,
    blocks: input.blocks ?? storedBlocks,
    html: input.html ?? row.html,
  });
  const [updated] = await db
    .update(newsletters)
    .set({
      name: input.name ?? row.name,
      subject,
      preheader,
      ...content,
      ...(input.listIds ? { listIds: [...new Set(input.listIds)] } : {}),
      ...(input.segmentIds ? { segmentIds: [...new Set(input.segmentIds)] } : {}),
      ...(input.senderAccountIds ? { senderAccountIds: [...new Set(input.senderAccountIds)] } : {}),
      ...(inArchive !== undefined ? { inArchive } : {}),
      updatedAt: now(),
    })
    // The status guard: a send that started meanwhile wins, and this edit is refused.
    .where(and(eq(newsletters.id, row.id), inArray(newsletters.status, ['draft', 'scheduled'])))
    .returning();
  if (!updated) throw new AppError('conflict', NEWSLETTER_MESSAGES.notEditable);
  return newsletterDto(db, options.appUrl, updated);
}

/** Blocks as stored; a document that no longer validates (an older format) is rendered as far as it goes. */
export function parseStoredBlocks(blocks: unknown[] | null): NewsletterBlock[] {
  if (!blocks) return [];
  const parsed = newsletterBlocksSchema.safeParse(blocks);
  if (parsed.success) return parsed.data;
  return blocks.flatMap((block) => {
    const one = newsletterBlocksSchema.safeParse([block]);
    return one.success ? one.data : [];
  });
}

export async function duplicateNewsletter(options: {
  db: Database;
  appUrl: string;
  userId: string;
  id: string;
}): Promise<Newsletter> {
  const { db, userId } = options;
  const row = await getNewsletterRow(options);
  await assertNewsletterAllowance(db, userId);
  const at = now();
  const [copy] = await db
    .insert(newsletters)
    .values({
      userId,
      kind: row.kind,
      name: `${row.name} (copy)`.slice(0, 120),
      subject: row.subject,
      preheader: row.preheader,
      blocks: row.blocks,
      html: row.html,
      text: row.text,
      listIds: row.listIds,
      segmentIds: row.segmentIds,
      senderAccountIds: row.senderAccountIds,
      webToken: newWebToken(),
      inArchive: row.inArchive,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return newsletterDto(db, options.appUrl, copy!);
}

export async function deleteNewsletter(options: { db: Database; userId: string; id: string }): Promise<void> {
  const row = await getNewsletterRow(options);
  if (row.status === 'sending') {
    throw new AppError('conflict', 'This is being sent right now. You can delete it once it has been sent.');
  }
  // To the admin recycle bin. A scheduled one goes back to draft first: nothing deleted ever sends, and a
  // restored one never goes out on a date that passed while it was in the bin.
  const at = now();
  const [deleted] = await options.db
    .update(newsletters)
    .set({
      deletedAt: at,
      updatedAt: at,
      ...(row.status === 'scheduled' ? { status: 'draft' as const, scheduledAt: null } : {}),
    })
    .where(
      and(
        eq(newsletters.id, row.id),
        eq(newsletters.status, row.status),
        sql`${newsletters.status} <> 'sending'`,
        isNull(newsletters.deletedAt),
      ),
    )
    .returning({ id: newsletters.id });
  if (!deleted) {
    throw new AppError('conflict', 'This is being sent right now. You can delete it once it has been sent.');
  }
}

/** A deleted newsletter or bulk email, for the recycle bin; null when it is not there. */
export async function findDeletedNewsletter(options: {
  db: Database;
  id: string;
}): Promise<{ id: string; userId: string; name: string } | null> {
  const [row] = await options.db
    .select({ id: newsletters.id, userId: newsletters.userId, name: newsletters.name })
    .from(newsletters)
    .where(and(eq(newsletters.id, options.id), isNotNull(newsletters.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Back to its owner (a draft, or sent as it was). False when it is not in the recycle bin. */
export async function restoreDeletedNewsletter(options: { db: Database; id: string }): Promise<boolean> {
  const restored = await options.db
    .update(newsletters)
    .set({ deletedAt: null, updatedAt: now() })
    .where(and(eq(newsletters.id, options.id), isNotNull(newsletters.deletedAt)))
    .returning({ id: newsletters.id });
  return restored.length > 0;
}

/**
 * Deletes a newsletter in the recycle bin for good. A sent one's engine campaign and figures stay, as
 * they did when deleting was immediate (the owner's totals and analytics keep them).
 */
export async function purgeDeletedNewsletter(options: { db: Database; id: string }): Promise<boolean> {
  const purged = await options.db
    .delete(newsletters)
    .where(and(eq(newsletters.id, options.id), isNotNull(newsletters.deletedAt)))
    .returning({ id: newsletters.id });
  return purged.length > 0;
}

/** The purge job's part: newsletters deleted before `cutoff`, for good. */
export async function purgeNewslettersDeletedBefore(options: {
  db: Database;
  cutoff: Date;
}): Promise<number> {
  const purged = await options.db
    .delete(newsletters)
    .where(and(isNotNull(newsletters.deletedAt), lt(newsletters.deletedAt, options.cutoff)))
    .returning({ id: newsletters.id });
  return purged.length;
}
