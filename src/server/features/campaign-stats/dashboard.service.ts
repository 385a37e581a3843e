import type { Database } from '@server/db/client';
import { campaignContacts, campaigns, newsletters } from '@server/db/schema/index';
import { now, startOfUtcMonth } from '@server/lib/clock';
import {
  percentString,
  RECENT_ITEMS_MAX,
  type RecentCampaign,
  type RecentNewsletter,
  type UserStats,
} from '@shared/campaign-stats';
import { and, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { countFromFacets } from '../directory/directory.service';
import { availableLeadScope } from '../leads/leads.service';
import { countRecipients } from '../plans/plan-access.service';
import { countsByCampaign } from './campaign-stats.service';

/*
 * The dashboard's stat cards and recent lists (GET /api/user/stats and
 * /api/user/{campaigns,newsletters}/recent). "This month" is the calendar month in UTC, the same month
 * the plan's per-month limits count.
 */

/** Campaign rows (one per campaign, newsletter or bulk send) → their recipients. */
async function recipientCounts(db: Database, campaignIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (campaignIds.length === 0) return out;
  const rows = await db
    .select({ id: campaignContacts.campaignId, n: sql<number>`count(*)::int` })
    .from(campaignContacts)
    .where(inArray(campaignContacts.campaignId, campaignIds))
    .groupBy(campaignContacts.campaignId);
  for (const row of rows) out.set(row.id, Number(row.n));
  return out;
}

/**
 * Available Contacts: the directory contacts the user's plan lets them reach (the chosen countries and
 * categories of a plan that limits them; every contact on a plan that does not, or before a choice).
 */
async function availableContacts(db: Database, user: { id: string; role?: string | null }) {
  const available = await availableLeadScope({ db, actor: user });
  // Before a free user chooses, the whole directory is not theirs to use: nothing is available yet.
  if (available.scope === 'choose_scope') return { count: 0, scope: available.scope, within: null };
  const count = available.filters ? await countFromFacets({ db, filters: available.filters }) : 0;
  const within =
    available.scope === 'plan_scope' && available.filters
      ? { countryCodes: available.filters.country ?? [], categories: available.filters.category ?? [] }
      : null;
  return { count, scope: available.scope, within };
}

export async function getUserStats(options: {
  db: Database;
  user: { id: string; role?: string | null };
}): Promise<UserStats> {
  const { db, user } = options;
  const monthStart = startOfUtcMonth(now());
  const [available, listContacts, [sentNewsletters], [sentCampaigns]] = await Promise.all([
    availableContacts(db, user),
    countRecipients({ db, userId: user.id }),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(newsletters)
      .where(
        and(
          eq(newsletters.userId, user.id),
          inArray(newsletters.status, ['sending', 'sent']),
          isNull(newsletters.deletedAt),
          gte(newsletters.sentAt, monthStart),
        ),
      ),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.userId, user.id),
          eq(campaigns.kind, 'campaign'),
          gte(campaigns.startedAt, monthStart),
        ),
      ),
  ]);
  return {
    availableContacts: available.count,
    availableContactsScope: available.scope,
    availableContactsIn: available.within,
    listContacts,
    newslettersSent: Number(sentNewsletters?.n ?? 0),
    campaignsSent: Number(sentCampaigns?.n ?? 0),
    monthStart: monthStart.toISOString(),
  };
}

/** The newest campaigns (not archived), with their recipients and open/click rates. */
export async function listRecentCampaigns(options: {
  db: Database;
  userId: string;
}): Promise<RecentCampaign[]> {
  const { db } = options;
  const rows = await db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.userId, options.userId),
        eq(campaigns.kind, 'campaign'),
        isNull(campaigns.archivedAt),
        isNull(campaigns.deletedAt),
      ),
    )
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(RECENT_ITEMS_MAX);
  const ids = rows.map((r) => r.id);
  const [counts, recipients] = await Promise.all([
    countsByCampaign({ db, campaignIds: ids }),
    recipientCounts(db, ids),
  ]);
  return rows.map((row) => {
    const c = counts.get(row.id);
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      recipientCount: recipients.get(row.id) ?? 0,
      sentAt: row.startedAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      openRate: percentString(c?.openedHuman ?? 0, c?.sent ?? 0),
      clickRate: percentString(c?.clicked ?? 0, c?.sent ?? 0),
    };
  });
}

/** The newest newsletters and bulk emails, with the recipients of those sent. */
export async function listRecentNewsletters(options: {
  db: Database;
  userId: string;
}): Promise<RecentNewsletter[]> {
  const { db } = options;
  const rows = await db
    .select()
    .from(newsletters)
    .where(and(eq(newsletters.userId, options.userId), isNull(newsletters.deletedAt)))
    .orderBy(desc(newsletters.createdAt), desc(newsletters.id))
    .limit(RECENT_ITEMS_MAX);
  const recipients = await recipientCounts(
    db,
    rows.flatMap((r) => (r.campaignId ? [r.campaignId] : [])),
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    name: row.name,
    subject: row.subject,
    status: row.status,
    recipientCount: row.campaignId ? (recipients.get(row.campaignId) ?? 0) : 0,
    sentAt: row.sentAt?.toISOString() ?? null,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}
