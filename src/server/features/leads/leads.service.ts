import type { Database } from '@server/db/client';
import { contactLists, listContacts, directoryContacts as t } from '@server/db/schema/index';
import {
  ADD_ALL_MATCHING_MAX,
  LEAD_COUNT_EXACT_CAP,
  type LeadSort,
  ROLE_ADDRESS_LOCAL_PARTS,
} from '@shared/contacts';
import type { Lead } from '@shared/leads';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  countDirectoryCapped,
  countFromFacets,
  countKeywordAudience,
  type DirectoryFilters,
  type DirectoryRow,
  filterConditions,
  isNameOnlyKeyword,
  liveForLeads,
  pageDirectory,
} from '../directory/directory.service';
import { createList, getListRow } from '../lists/lists.service';
import {
  assertRecipientCapacity,
  type ContactsActor,
  countRecipients,
  lockUserContacts,
} from '../plans/plan-access.service';
import { scopedFilters } from './lead-scope';

export function toLeadDto(row: DirectoryRow): Lead {
  return {
    id: row.id,
    companyName: row.companyName,
    contactName: row.contactName,
    jobTitle: row.jobTitle,
    email: row.email,
    phone: row.phone,
    website: row.website,
    city: row.city,
    countryCode: row.countryCode,
    category: row.category,
    source: row.source,
    sourceUrl: row.sourceUrl,
    sample: row.synthetic,
    verificationStatus: row.verificationStatus,
    // "Verified" needs evidence: a result, its date, and a real record (sample data is never verified).
    verified: row.verificationStatus === 'verified' && row.verifiedAt !== null && !row.synthetic,
    verifiedAt: row.verificationStatus === 'unverified' ? null : (row.verifiedAt?.toISOString() ?? null),
    verificationMethod: !row.verifiedBy
      ? null
      : row.verifiedBy === 'email_check'
        ? 'email_check'
        : 'officer_check',
    createdAt: row.createdAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------
// The plan's scope of the directory (lead-scope.ts): what search, count and add-to-list run within

export { availableLeadScope, getLeadScope, scopedFilters, setLeadScope } from './lead-scope';

// ---------------------------------------------------------------------------------------------------
// Search and count

export async function searchLeads(options: {
  db: Database;
  actor: ContactsActor;
  filters: DirectoryFilters;
  sort: LeadSort;
  cursor?: string;
  limit: number;
}): Promise<{ items: Lead[]; nextCursor: string | null }> {
  const filters = await scopedFilters(options);
  const { rows, nextCursor } = await pageDirectory({
    db: options.db,
    conditions: [...liveForLeads(), ...filterConditions(filters)],
    sort: options.sort,
    cursor: options.cursor,
    limit: options.limit,
    keyword: isNameOnlyKeyword(filters),
  });
  return { items: rows.map(toLeadDto), nextCursor };
}

/**
 * Estimated audience. Without a keyword it reads the trigger-maintained roll-up (exact, a few ms even
 * over millions of contacts); a keyword needs the rows themselves, so it counts up to a cap.
 */
export async function countLeads(options: {
  db: Database;
  actor: ContactsActor;
  filters: DirectoryFilters;
}): Promise<{ count: number; capped: boolean }> {
  const filters = await scopedFilters(options);
  // The roll-up knows no verification dates: an age filter counts the rows themselves, up to the cap.
  if (filters.verifiedWithinDays) {
    return countDirectoryCapped({
      db: options.db,
      conditions: [...liveForLeads(), ...filterConditions(filters)],
      cap: LEAD_COUNT_EXACT_CAP,
    });
  }
  if (!filters.q) return { count: await countFromFacets({ db: options.db, filters }), capped: false };
  return countKeywordAudience({
    db: options.db,
    filters: { ...filters, q: filters.q },
    live: liveForLeads(),
    cap: LEAD_COUNT_EXACT_CAP,
  });
}

// ---------------------------------------------------------------------------------------------------
// Add to list

const roleLocalParts = [...ROLE_ADDRESS_LOCAL_PARTS];

/**
 * Copies directory contacts into one of the user's lists in one INSERT … SELECT; an address already in
 * the list is skipped (ON CONFLICT on the list's duplicate key). All or nothing: over the plan's
 * recipient limit the transaction rolls back.
 */
export async function addLeadsToList(options: {
  db: Database;
  actor: ContactsActor;
  listId?: string;
  newListName?: string;
  contactIds?: string[];
  allMatching?: DirectoryFilters;
}) {
  const { actor } = options;
  const filters = await scopedFilters({ db: options.db, actor, filters: options.allMatching ?? {} });
  return options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await lockUserContacts({ db: tx, userId: actor.id });
    const list = options.listId
      ? await getListRow({ db: tx, userId: actor.id, id: options.listId, forNewMembers: true })
      : await createList({ db: tx, userId: actor.id, name: options.newListName! });
    const usedBefore = await countRecipients({ db: tx, userId: actor.id });

    const conditions: SQL[] = [...liveForLeads(), ...filterConditions(filters)];
    if (options.contactIds) conditions.push(inArray(t.id, options.contactIds));
    const source = tx
      .select({
        email: t.email,
        companyName: t.companyName,
        contactName: t.contactName,
        jobTitle: t.jobTitle,
        phone: t.phone,
        website: t.website,
        city: t.city,
        countryCode: t.countryCode,
        id: t.id,
      })
      .from(t)
      .where(and(...conditions))
      .orderBy(asc(t.companyName), asc(t.id))
      .limit(options.contactIds ? options.contactIds.length : ADD_ALL_MATCHING_MAX);

    const roleList = sql.join(
      roleLocalParts.map((p) => sql`${p}`),
      sql`, `,
    );
    const result = await tx.execute(sql`
      WITH src AS (${source}),
      ins AS (
        INSERT INTO ${listContacts} (user_id, list_id, email, email_normalized, first_name, last_name, company,
          job_title, phone, website, city, country_code, role_address, source, directory_contact_id)
        SELECT ${actor.id}, ${list.id}::uuid, src.email, lower(btrim(src.email)),
          nullif(split_part(btrim(src.contact_name), ' ', 1), ''),
          nullif(btrim(substr(btrim(src.contact_name), length(split_part(btrim(src.contact_name), ' ', 1)) + 1)), ''),
          src.company_name, src.job_title, src.phone, src.website, src.city, src.country_code,
          split_part(lower(split_part(src.email, '@', 1)), '+', 1) IN (${roleList}),
          'lead_discovery', src.id
        FROM src
        ON CONFLICT (list_id, email_normalized) DO NOTHING
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM src)::int AS matched, (SELECT count(*) FROM ins)::int AS added
    `);
    const counts = (result as unknown as { rows: { matched: number; added: number }[] }).rows[0]!;
    const matched = Number(counts.matched);
    const added = Number(counts.added);
    await assertRecipientCapacity({ db: tx, actor, used: usedBefore, adding: added });
    const [after] = await tx
      .select({ contactCount: contactLists.contactCount })
      .from(contactLists)
      .where(eq(contactLists.id, list.id));
    return {
      listId: list.id,
      listName: list.name,
      added,
      skippedDuplicates: matched - added,
      contactCount: after?.contactCount ?? 0,
    };
  });
}
