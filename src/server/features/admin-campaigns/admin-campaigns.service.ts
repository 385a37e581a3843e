import type { Database } from '@server/db/client';
import { campaignContacts, campaignSteps, campaigns, newsletters, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { AppError, notFound } from '@server/lib/errors';
import {
  ADMIN_CAMPAIGN_MESSAGES,
  type AdminCampaignDetail,
  type AdminCampaignListItem,
  type AdminCampaignListQuery,
  type AdminNewsletterDetail,
  type AdminNewsletterListItem,
  type AdminNewsletterListQuery,
  type Owner,
} from '@shared/admin-campaigns';
import type { Campaign } from '@shared/campaigns';
import { and, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AuditActor } from '../admin/audit.service';
import { recordAuditEntry } from '../admin/audit.service';
import { countsByCampaign, getCampaignStats } from '../campaign-stats/campaign-stats.service';
import {
  getCampaignRowById,
  pauseCampaign,
  stopCampaign,
  toCampaignDto,
} from '../campaigns/campaigns.service';
import {
  getNewsletterRowById,
  loadSendFigures,
  newsletterDto,
  sendPauses,
} from '../newsletters/newsletters.service';

/*
 * Super admins' view of every user's campaigns and newsletters. Pause and stop go through the campaign
 * core (which writes the audit entry); cancelling a scheduled newsletter puts it back to draft here.
 */

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const ownerColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

async function ownerOf(db: Database, userId: string): Promise<Owner> {
  const [row] = await db.select(ownerColumns).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound('Owner not found');
  return { id: row.id, email: row.email, firstName: row.firstName ?? null, lastName: row.lastName ?? null };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function countByCampaign(
  db: Database,
  table: typeof campaignContacts | typeof campaignSteps,
  ids: string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: table.campaignId, n: count() })
    .from(table)
    .where(inArray(table.campaignId, ids))
    .groupBy(table.campaignId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

// ---------------------------------------------------------------------------------------------------
// Campaigns

/** Every user's campaigns, newest first (keyset on created_at, id); `q` matches the name or owner email. */
export async function listAdminCampaigns(options: {
  db: Database;
  query: AdminCampaignListQuery;
}): Promise<{ items: AdminCampaignListItem[]; nextCursor: string | null }> {
  const { db, query } = options;
  const after = decodeCursor('admin-campaigns', query.cursor, 2);
  // Deleted drafts are in the recycle bin, not here.
  const conditions: SQL[] = [eq(campaigns.kind, 'campaign'), isNull(campaigns.deletedAt)];
  if (query.status) conditions.push(eq(campaigns.status, query.status));
  if (query.userId) conditions.push(eq(campaigns.userId, query.userId));
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    conditions.push(or(sql`${campaigns.name} ILIKE ${pattern}`, sql`${users.email} ILIKE ${pattern}`)!);
  }
  if (after) {
    conditions.push(
      sql`(${campaigns.createdAt}, ${campaigns.id}) < (${String(after[0])}::timestamptz, ${String(after[1])}::uuid)`,
    );
  }
  const rows = await db
    .select({ row: campaigns, owner: ownerColumns, createdAtText: sql<string>`${campaigns.createdAt}::text` })
    .from(campaigns)
    .innerJoin(users, eq(users.id, campaigns.userId))
    .where(and(...conditions))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const ids = page.map((r) => r.row.id);
  const [counts, contacts, steps] = await Promise.all([
    countsByCampaign({ db, campaignIds: ids }),
    countByCampaign(db, campaignContacts, ids),
    countByCampaign(db, campaignSteps, ids),
  ]);
  const last = page.at(-1);
  return {
    items: page.map(({ row, owner }) => {
      const c = counts.get(row.id);
      return {
        id: row.id,
        name: row.name,
        status: row.status,
        archivedAt: iso(row.archivedAt),
        scheduledAt: iso(row.scheduledAt),
        startedAt: iso(row.startedAt),
        completedAt: iso(row.completedAt),
        createdAt: row.createdAt.toISOString(),
        owner: { ...owner, firstName: owner.firstName ?? null, lastName: owner.lastName ?? null },
        contactCount: contacts.get(row.id) ?? 0,
        stepCount: steps.get(row.id) ?? 0,
        sent: c?.sent ?? 0,
        opened: c?.openedHuman ?? 0,
        clicked: c?.clicked ?? 0,
        replied: c?.replied ?? 0,
      };
    }),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor('admin-campaigns', [last.createdAtText, last.row.id])
        : null,
  };
}

export async function getAdminCampaign(options: { db: Database; id: string }): Promise<AdminCampaignDetail> {
  const { db } = options;
  const row = await getCampaignRowById({ db, id: options.id });
  const [campaign, owner, stats] = await Promise.all([
    toCampaignDto(db, row),
    ownerOf(db, row.userId),
    getCampaignStats({ db, userId: null, campaignId: row.id }),
  ]);
  return { ...campaign, owner, stats };
}

export async function pauseCampaignAsAdmin(options: {
  db: Database;
  id: string;
  actor: AuditActor;
}): Promise<Campaign> {
  return pauseCampaign({
    db: options.db,
    campaignId: options.id,
    actor: { ...options.actor, role: 'super_admin' },
    audit: true,
  });
}

export async function stopCampaignAsAdmin(options: {
  db: Database;
  id: string;
  actor: AuditActor;
}): Promise<Campaign> {
  return stopCampaign({
    db: options.db,
    campaignId: options.id,
    actor: { ...options.actor, role: 'super_admin' },
    audit: true,
  });
}

// ---------------------------------------------------------------------------------------------------
// Newsletters

export async function listAdminNewsletters(options: {
  db: Database;
  query: AdminNewsletterListQuery;
}): Promise<{ items: AdminNewsletterListItem[]; nextCursor: string | null }> {
  const { db, query } = options;
  const after = decodeCursor('admin-newsletters', query.cursor, 2);
  const conditions: SQL[] = [isNull(newsletters.deletedAt)];
  if (query.status) conditions.push(eq(newsletters.status, query.status));
  if (query.kind) conditions.push(eq(newsletters.kind, query.kind));
  if (query.userId) conditions.push(eq(newsletters.userId, query.userId));
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    conditions.push(
      or(
        sql`${newsletters.name} ILIKE ${pattern}`,
        sql`${newsletters.subject} ILIKE ${pattern}`,
        sql`${users.email} ILIKE ${pattern}`,
      )!,
    );
  }
  if (after) {
    conditions.push(
      sql`(${newsletters.createdAt}, ${newsletters.id}) < (${String(after[0])}::timestamptz, ${String(after[1])}::uuid)`,
    );
  }
  const rows = await db
    .select({
      row: newsletters,
      owner: ownerColumns,
      createdAtText: sql<string>`${newsletters.createdAt}::text`,
    })
    .from(newsletters)
    .innerJoin(users, eq(users.id, newsletters.userId))
    .where(and(...conditions))
    .orderBy(desc(newsletters.createdAt), desc(newsletters.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  // Recipients from the send counters the user's list reads too (a count of a million-recipient send's
  // contacts on every load, before), and which sends in progress are paused for their owner.
  const [figures, pauses] = await Promise.all([
    loadSendFigures(
      db,
      page.flatMap((r) => (r.row.campaignId ? [r.row.campaignId] : [])),
    ),
    sendPauses(
      db,
      page.flatMap((r) => (r.row.campaignId && r.row.status === 'sending' ? [r.row.campaignId] : [])),
    ),
  ]);
  const last = page.at(-1);
  return {
    items: page.map(({ row, owner }) => ({
      id: row.id,
      kind: row.kind,
      name: row.name,
      subject: row.subject,
      status: row.status,
      scheduledAt: iso(row.scheduledAt),
      sentAt: iso(row.sentAt),
      createdAt: row.createdAt.toISOString(),
      recipientCount: row.campaignId ? (figures.get(row.campaignId)?.recipients ?? 0) : 0,
      paused: row.status === 'sending' && row.campaignId !== null && pauses.has(row.campaignId),
      owner: { ...owner, firstName: owner.firstName ?? null, lastName: owner.lastName ?? null },
    })),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor('admin-newsletters', [last.createdAtText, last.row.id])
        : null,
  };
}

export async function getAdminNewsletter(options: {
  db: Database;
  appUrl: string;
  id: string;
}): Promise<AdminNewsletterDetail> {
  const row = await getNewsletterRowById({ db: options.db, id: options.id });
  const [newsletter, owner] = await Promise.all([
    newsletterDto(options.db, options.appUrl, row),
    ownerOf(options.db, row.userId),
  ]);
  return { ...newsletter, owner };
}

/** A scheduled newsletter goes back to draft (the owner can schedule it again); audited. */
export async function cancelScheduledNewsletter(options: {
  db: Database;
  appUrl: string;
  id: string;
  actor: AuditActor;
}): Promise<AdminNewsletterDetail> {
  const { db } = options;
  const row = await getNewsletterRowById({ db, id: options.id });
  const [saved] = await db
    .update(newsletters)
    .set({ status: 'draft', scheduledAt: null, updatedAt: now() })
    .where(and(eq(newsletters.id, row.id), eq(newsletters.status, 'scheduled')))
    .returning();
  if (!saved) throw new AppError('conflict', ADMIN_CAMPAIGN_MESSAGES.onlyScheduledCancelled);
  await recordAuditEntry({
    db,
    actor: options.actor,
    action: 'newsletter.cancel_schedule',
    targetType: 'newsletter',
    targetId: row.id,
    details: { name: row.name, ownerId: row.userId, scheduledAt: iso(row.scheduledAt) },
  });
  return getAdminNewsletter({ db, appUrl: options.appUrl, id: row.id });
}
