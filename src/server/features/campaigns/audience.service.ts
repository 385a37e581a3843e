import type { Database } from '@server/db/client';
import { contactLists, directoryContacts, listContacts } from '@server/db/schema/index';
import { AppError } from '@server/lib/errors';
import { CAMPAIGN_MESSAGES, type CampaignAudience, DEFAULT_VERIFICATION_SKIP } from '@shared/campaigns';
import { ADD_ALL_MATCHING_MAX, emailDedupeKey } from '@shared/contacts';
import { and, asc, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
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
 * asks). Walked in keyset batches; an address an earlier list gave is found by a lookup on the lists'
 * (list_id, email_normalized) key, batch by batch, so memory does not grow with the audience (only the
 * leads' addresses, at most ADD_ALL_MATCHING_MAX a filter, are remembered).
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

/**
 * Which of `keys` (normalised addresses) are members of `lists`, each narrowed by its segment as the walk
 * narrows it: the members a later list or a lead loses to. One lookup per batch on the lists'
 * (list_id, email_normalized) key, so deduplication holds nothing beyond the batch in memory.
 */
async function keysInLists(
  db: Database,
  userId: string,
  lists: readonly string[],
  narrowed: Map<string, SQL>,
  keys: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  if (lists.length === 0 || keys.length === 0) return found;
  const plain = lists.filter((id) => !narrowed.has(id));
  const lookups = [
    ...(plain.length > 0 ? [inArray(listContacts.listId, plain)] : []),
    ...lists.filter((id) => narrowed.has(id)).map((id) => and(eq(listContacts.listId, id), narrowed.get(id))),
  ];
  for (const inLists of lookups) {
    const rows = await db
      .select({ key: listContacts.emailNormalized })
      .from(listContacts)
      .where(
        and(
          eq(listContacts.userId, userId),
          inLists,
          sql`${listContacts.emailNormalized} = ANY(${sql.param(keys)}::text[])`,
        ),
      );
    for (const row of rows) found.add(row.key);
  }
  return found;
}

interface AudienceLists {
  /** The audience's lists, live and the user's, each once, in the order the audience names them. */
  ids: string[];
  /** A list's segment condition, for the lists a segment narrows. */
  narrowed: Map<string, SQL>;
}

async function audienceLists(
  db: Database,
  userId: string,
  listIds: string[],
  segmentIds: string[],
): Promise<AudienceLists> {
  if (listIds.length === 0) return { ids: [], narrowed: new Map() };
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
  return { ids: [...new Set(listIds)], narrowed };
}

/**
 * The lists' members, list after list, each batch without the addresses an earlier list already gave
 * (a list has each address once: its (list_id, email_normalized) key).
 */
async function* listBatches(
  db: Database,
  userId: string,
  lists: AudienceLists,
): AsyncGenerator<AudienceContact[]> {
  for (const [position, listId] of lists.ids.entries()) {
    const earlier = lists.ids.slice(0, position);
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
            lists.narrowed.get(listId),
          ),
        )
        .orderBy(asc(listContacts.id))
        .limit(BATCH);
      if (rows.length === 0) break;
      lastId = Number(rows.at(-1)!.id);
      const addressed = rows.filter((r) => r.emailNormalized.includes('@'));
      const taken = await keysInLists(
        db,
        userId,
        earlier,
        lists.narrowed,
        addressed.map((r) => r.emailNormalized),
      );
      yield addressed
        .filter((r) => !taken.has(r.emailNormalized))
        .map((r) => ({
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
  let remaining = options.limit ?? Number.POSITIVE_INFINITY;
  const skip = options.audience.skipUnverified ?? DEFAULT_VERIFICATION_SKIP;
  const skipStatuses =
    skip === 'risky' ? (['invalid', 'risky'] as const) : skip === 'invalid' ? (['invalid'] as const) : [];
  const lists = await audienceLists(
    db,
    userId,
    options.audience.listIds ?? [],
    options.audience.segmentIds ?? [],
  );
  // Leads are few (ADD_ALL_MATCHING_MAX a filter): their addresses are remembered to keep one each.
  const leadsSeen = new Set<string>();
  const sources = [
    listBatches(db, userId, lists),
    leadBatches(db, { id: userId, role: options.role }, options.audience.leadFilters ?? []),
  ];
  for (const [index, source] of sources.entries()) {
    const fromLists = index === 0;
    for await (const batch of source) {
      let fresh = batch;
      if (!fromLists) {
        const keyed: { contact: AudienceContact; key: string }[] = [];
        for (const contact of batch) {
          const key = emailDedupeKey(contact.email);
          if (!key.includes('@') || leadsSeen.has(key)) continue;
          leadsSeen.add(key);
          keyed.push({ contact, key });
        }
        const onLists = await keysInLists(
          db,
          userId,
          lists.ids,
          lists.narrowed,
          keyed.map(({ key }) => key),
        );
        fresh = keyed.filter(({ key }) => !onLists.has(key)).map(({ contact }) => contact);
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
