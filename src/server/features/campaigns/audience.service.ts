import type { Database } from '@server/db/client';
import { contactLists, directoryContacts, listContacts } from '@server/db/schema/index';
import { AppError } from '@server/lib/errors';
import { CAMPAIGN_MESSAGES, type CampaignAudience, DEFAULT_VERIFICATION_SKIP } from '@shared/campaigns';
import { ADD_ALL_MATCHING_MAX, emailDedupeKey } from '@shared/contacts';
import { and, asc, eq, gt, inArray, isNull, type SQL } from 'drizzle-orm';
import { type DirectoryFilters, filterConditions, liveForLeads } from '../directory/directory.service';
import { scopedFilters } from '../leads/leads.service';
import { assertListNotFrozen } from '../lists/lists.service';
import { segmentFilters } from '../segments/segments.service';
import { filterSuppressed } from '../suppression/suppression.service';
import { addressesJudged } from '../verification/verification.service';

/*
 * Who a campaign (or a newsletter/bulk send) goes to: the members of the user's lists (each narrowed by
 * its chosen segment, if any: the segment's count counts exactly these), then the
 * directory contacts matching saved lead-discovery filters; one recipient per address (case-insensitive,
 * the first occurrence wins, so list data with its custom fields beats the directory's), suppressed
 * addresses left out, and so are those the email verifier judged invalid (or risky too, as the audience
 * asks). Walked in keyset batches: no list is held in memory, only the addresses seen.
 */

export interface AudienceContact {
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  city: string | null;
  countryCode: string | null;
  fields: Record<string, string>;
  /** list_contacts.id (a bigint there) when the contact came from a list. */
  listContactId?: number | null;
  directoryContactId?: string | null;
}

const BATCH = 1_000;

function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  const trimmed = (name ?? '').trim().replace(/\s+/g, ' ');
  if (!trimmed) return { firstName: null, lastName: null };
  const space = trimmed.indexOf(' ');
  return space < 0
    ? { firstName: trimmed, lastName: null }
    : { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1) };
}

function toDirectoryFilters(filter: CampaignAudience['leadFilters'][number]): DirectoryFilters {
  return {
    country: filter.country,
    city: filter.city,
    category: filter.category,
    q: filter.keyword?.trim() || undefined,
    verifiedOnly: filter.verifiedOnly,
    hasPhone: filter.hasPhone,
    hasWebsite: filter.hasWebsite,
  };
}

async function* listBatches(
  db: Database,
  userId: string,
  listIds: string[],
  segmentIds: string[],
): AsyncGenerator<AudienceContact[]> {
  if (listIds.length === 0) return;
  const live = await db
    .select({
      id: contactLists.id,
      name: contactLists.name,
      frozenAt: contactLists.frozenAt,
      frozenReason: contactLists.frozenReason,
    })
    .from(contactLists)
    .where(
      and(eq(contactLists.userId, userId), inArray(contactLists.id, listIds), isNull(contactLists.deletedAt)),
    );
  if (live.length !== new Set(listIds).size) throw new AppError('validation', CAMPAIGN_MESSAGES.listNotFound);
  // A list frozen by an admin is no audience: launching, scheduling and sending all stop here.
  for (const list of live) assertListNotFrozen(list);
  const narrowed = await segmentFilters({ db, userId, listIds, segmentIds });
  for (const listId of new Set(listIds)) {
    let lastId = 0;
    for (;;) {
      const rows = await db
        .select()
        .from(listContacts)
        .where(
          and(
            eq(listContacts.userId, userId),
            eq(listContacts.listId, listId),
            gt(listContacts.id, lastId),
            narrowed.get(listId),
          ),
        )
        .orderBy(asc(listContacts.id))
        .limit(BATCH);
      if (rows.length === 0) break;
      lastId = Number(rows.at(-1)!.id);
      yield rows.map((r) => ({
        email: r.email.trim(),
        firstName: r.firstName,
        lastName: r.lastName,
        company: r.company,
        city: r.city,
        countryCode: r.countryCode,
        fields: r.customFields ?? {},
        listContactId: Number(r.id),
        directoryContactId: r.directoryContactId,
      }));
    }
  }
}

async function* leadBatches(
  db: Database,
  actor: { id: string; role?: string | null },
  leadFilters: CampaignAudience['leadFilters'],
): AsyncGenerator<AudienceContact[]> {
  for (const filter of leadFilters) {
    // The same plan scope as lead discovery: a free user's filter stays in their country and category.
    const filters = await scopedFilters({ db, actor, filters: toDirectoryFilters(filter) });
    const conditions: SQL[] = [...liveForLeads(), ...filterConditions(filters)];
    let lastId: string | null = null;
    let taken = 0;
    while (taken < ADD_ALL_MATCHING_MAX) {
      const page: (typeof directoryContacts.$inferSelect)[] = await db
        .select()
        .from(directoryContacts)
        .where(and(...conditions, ...(lastId ? [gt(directoryContacts.id, lastId)] : [])))
        .orderBy(asc(directoryContacts.id))
        .limit(Math.min(BATCH, ADD_ALL_MATCHING_MAX - taken));
      if (page.length === 0) break;
      lastId = page.at(-1)!.id;
      taken += page.length;
      yield page.map((r) => ({
        email: r.email.trim(),
        ...splitName(r.contactName),
        company: r.companyName,
        city: r.city,
        countryCode: r.countryCode,
        fields: {},
        listContactId: null,
        directoryContactId: r.id,
      }));
    }
  }
}

/**
 * The audience's recipients in batches: de-duplicated, suppression applied, at most `limit` of them.
 * Throws 400 when a list is not the user's (or was deleted), 403 when a lead filter is outside a free
 * plan's scope.
 */
export async function* resolveAudienceBatches(options: {
  db: Database;
  userId: string;
  role?: string | null;
  audience: CampaignAudience;
  limit?: number;
}): AsyncGenerator<AudienceContact[]> {
  const { db, userId } = options;
  const seen = new Set<string>();
  let remaining = options.limit ?? Number.POSITIVE_INFINITY;
  const skip = options.audience.skipUnverified ?? DEFAULT_VERIFICATION_SKIP;
  const skipStatuses =
    skip === 'risky' ? (['invalid', 'risky'] as const) : skip === 'invalid' ? (['invalid'] as const) : [];
  const sources = [
    listBatches(db, userId, options.audience.listIds ?? [], options.audience.segmentIds ?? []),
    leadBatches(db, { id: userId, role: options.role }, options.audience.leadFilters ?? []),
  ];
  for (const source of sources) {
    for await (const batch of source) {
      const fresh: AudienceContact[] = [];
      for (const contact of batch) {
        const key = emailDedupeKey(contact.email);
        if (!key.includes('@') || seen.has(key)) continue;
        seen.add(key);
        fresh.push(contact);
      }
      if (fresh.length === 0) continue;
      const emails = fresh.map((c) => c.email);
      const [blocked, judged] = await Promise.all([
        filterSuppressed({ db, userId, emails }),
        addressesJudged({ db, emails, statuses: skipStatuses }),
      ]);
      const allowed = fresh.filter((c) => !blocked.has(c.email) && !judged.has(c.email)).slice(0, remaining);
      remaining -= allowed.length;
      if (allowed.length > 0) yield allowed;
      if (remaining <= 0) return;
    }
  }
}

/** resolveAudienceBatches one contact at a time (`for await (const contact of resolveAudience(…))`). */
export async function* resolveAudience(options: {
  db: Database;
  userId: string;
  role?: string | null;
  audience: CampaignAudience;
  limit?: number;
}): AsyncGenerator<AudienceContact> {
  for await (const batch of resolveAudienceBatches(options)) yield* batch;
}
