import type { Database } from '@server/db/client';
import { contactLists, listContacts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { isUniqueViolation } from '@server/lib/db-errors';
import { AppError, notFound } from '@server/lib/errors';
import {
  CONTACT_MESSAGES,
  emailDedupeKey,
  isRoleAddress,
  LIST_RECYCLE_BIN_DAYS,
  normalizeEmail,
} from '@shared/contacts';
import type { ContactList, ListContact } from '@shared/lists';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { escapeLike } from '../directory/directory.service';
import {
  assertRecipientCapacity,
  type ContactsActor,
  countRecipients,
  lockUserContacts,
} from '../plans/plan-access.service';
import { assertNotErased } from '../suppression/suppression.service';

type ListRow = typeof contactLists.$inferSelect;
type ListContactRow = typeof listContacts.$inferSelect;

const DAY_MS = 86_400_000;
const LIST_NOT_FOUND = 'List not found';
const CONTACT_NOT_FOUND = 'Contact not found';

export function toListDto(row: ListRow): ContactList {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    customFields: row.customFields ?? [],
    contactCount: row.contactCount,
    frozen: row.frozenAt !== null,
    frozenReason: row.frozenReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toListContactDto(row: ListContactRow): ListContact {
  return {
    id: Number(row.id),
    listId: row.listId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    jobTitle: row.jobTitle,
    phone: row.phone,
    website: row.website,
    city: row.city,
    countryCode: row.countryCode,
    customFields: row.customFields ?? {},
    roleAddress: row.roleAddress,
    source: row.source,
    directoryContactId: row.directoryContactId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Lists

export async function listLists({ db, userId }: { db: Database; userId: string }): Promise<ContactList[]> {
  const rows = await db
    .select()
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), isNull(contactLists.deletedAt)))
    .orderBy(desc(contactLists.createdAt), desc(contactLists.id));
  return rows.map(toListDto);
}

/**
 * A list frozen by a super admin (it looks bought or scraped) cannot be sent to or take new members:
 * the owner is told why. Every writer that adds members and every audience check calls this.
 */
export function assertListNotFrozen(list: {
  name: string;
  frozenAt: Date | null;
  frozenReason: string | null;
}): void {
  if (list.frozenAt) {
    throw new AppError('forbidden', CONTACT_MESSAGES.listFrozen(list.name, list.frozenReason), {
      reason: 'list_frozen',
    });
  }
}

/** A live list of this user; another user's id or a deleted list answers 404. */
export async function getListRow(options: {
  db: Database;
  userId: string;
  id: string;
  /**
   * For a transaction that adds members: locks the row (FOR KEY SHARE) until it commits, so the list
   * cannot be deleted in between and leave members behind (list_contacts has no foreign key; see
   * schema/contacts.ts).
   */
  forNewMembers?: boolean;
}): Promise<ListRow> {
  const query = options.db
    .select()
    .from(contactLists)
    .where(
      and(
        eq(contactLists.id, options.id),
        eq(contactLists.userId, options.userId),
        isNull(contactLists.deletedAt),
      ),
    )
    .limit(1);
  const [row] = options.forNewMembers ? await query.for('key share') : await query;
  if (!row) throw notFound(LIST_NOT_FOUND);
  if (options.forNewMembers) assertListNotFrozen(row);
  return row;
}

/**
 * Ids a request body names (a campaign's audience, a newsletter's lists) must all be live lists of this
 * user: another account's id answers 404 with the field, as it would in a path, and nothing is written.
 */
export async function assertOwnLists(options: {
  db: Database;
  userId: string;
  ids: readonly string[];
  path: string;
  message?: string;
}): Promise<void> {
  const unique = [...new Set(options.ids)];
  if (unique.length === 0) return;
  const rows = await options.db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.userId, options.userId),
        inArray(contactLists.id, unique),
        isNull(contactLists.deletedAt),
      ),
    );
  if (rows.length !== unique.length) {
    const message = options.message ?? LIST_NOT_FOUND;
    throw new AppError('not_found', message, { errors: [{ path: options.path, message }] });
  }
}

/**
 * The custom fields of a user's live lists: the merge tags a campaign or newsletter to them may use
 * besides the built-in ones. Another user's or a deleted list adds nothing.
 */
export async function customFieldsOfLists(
  db: Database,
  userId: string,
  listIds: readonly string[],
): Promise<string[]> {
  if (listIds.length === 0) return [];
  const rows = await db
    .select({ customFields: contactLists.customFields })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.userId, userId),
        inArray(contactLists.id, [...listIds]),
        isNull(contactLists.deletedAt),
      ),
    );
  return [...new Set(rows.flatMap((r) => r.customFields ?? []))];
}

export async function getListById(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<ContactList> {
  return toListDto(await getListRow(options));
}

export async function createList(options: {
  db: Database;
  userId: string;
  name: string;
  description?: string | null;
  customFields?: string[];
}): Promise<ContactList> {
  try {
    const [row] = await options.db
      .insert(contactLists)
      .values({
        userId: options.userId,
        name: options.name,
        description: options.description ?? null,
        customFields: options.customFields ?? [],
      })
      .returning();
    return toListDto(row!);
  } catch (error) {
    if (isUniqueViolation(error, 'contact_lists_user_name_key'))
      throw new AppError('conflict', CONTACT_MESSAGES.duplicateListName);
    throw error;
  }
}

export async function updateList(options: {
  db: Database;
  userId: string;
  id: string;
  changes: { name?: string; description?: string | null; customFields?: string[] };
}): Promise<ContactList> {
  await getListRow(options);
  const { changes } = options;
  try {
    const [row] = await options.db
      .update(contactLists)
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.customFields !== undefined ? { customFields: changes.customFields } : {}),
        updatedAt: now(),
      })
      .where(and(eq(contactLists.id, options.id), eq(contactLists.userId, options.userId)))
      .returning();
    return toListDto(row!);
  } catch (error) {
    if (isUniqueViolation(error, 'contact_lists_user_name_key'))
      throw new AppError('conflict', CONTACT_MESSAGES.duplicateListName);
    throw error;
  }
}

/** Moves the list to the recycle bin; its contacts stay until the purge. */
export async function deleteList(options: { db: Database; userId: string; id: string }): Promise<void> {
  await getListRow(options);
  await options.db
    .update(contactLists)
    .set({ deletedAt: now(), updatedAt: now() })
    .where(and(eq(contactLists.id, options.id), eq(contactLists.userId, options.userId)));
}

const purgeAt = (deletedAt: Date) => new Date(deletedAt.getTime() + LIST_RECYCLE_BIN_DAYS * DAY_MS);

export async function listRecycleBin({ db, userId }: { db: Database; userId: string }) {
  const rows = await db
    .select()
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), isNotNull(contactLists.deletedAt)))
    .orderBy(desc(contactLists.deletedAt));
  return rows.map((row) => ({
    ...toListDto(row),
    deletedAt: row.deletedAt!.toISOString(),
    purgeAt: purgeAt(row.deletedAt!).toISOString(),
  }));
}

async function getDeletedListRow(options: { db: Database; userId: string; id: string }): Promise<ListRow> {
  const [row] = await options.db
    .select()
    .from(contactLists)
    .where(
      and(
        eq(contactLists.id, options.id),
        eq(contactLists.userId, options.userId),
        isNotNull(contactLists.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound(LIST_NOT_FOUND);
  return row;
}

/**
 * Brings a list back from the recycle bin. If a live list took its name meanwhile it returns as
 * "Name (restored)". Its contacts count against the plan's recipient limit again.
 */
export async function restoreList(options: {
  db: Database;
  actor: ContactsActor;
  id: string;
}): Promise<ContactList> {
  const userId = options.actor.id;
  return options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await lockUserContacts({ db: tx, userId });
    const row = await getDeletedListRow({ db: tx, userId, id: options.id });
    await assertRecipientCapacity({
      db: tx,
      actor: options.actor,
      used: await countRecipients({ db: tx, userId }),
      adding: row.contactCount,
    });
    const [clash] = await tx
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(
        and(
          eq(contactLists.userId, userId),
          isNull(contactLists.deletedAt),
          sql`lower(${contactLists.name}) = lower(${row.name})`,
        ),
      )
      .limit(1);
    const name = clash ? await freeName(tx, userId, `${row.name} (restored)`) : row.name;
    const [restored] = await tx
      .update(contactLists)
      .set({ deletedAt: null, name, updatedAt: now() })
      .where(and(eq(contactLists.id, options.id), eq(contactLists.userId, userId)))
      .returning();
    return toListDto(restored!);
  });
}

/** `base`, or `base 2`, `base 3` … whichever is free among the user's live lists. */
async function freeName(db: Database, userId: string, base: string): Promise<string> {
  const rows = await db
    .select({ name: sql<string>`lower(${contactLists.name})` })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.userId, userId),
        isNull(contactLists.deletedAt),
        ilike(contactLists.name, `${escapeLike(base)}%`),
      ),
    );
  const taken = new Set(rows.map((r) => r.name));
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`.toLowerCase())) return `${base} ${n}`;
}

/** Deletes a list in the recycle bin for good (its contacts go with it). */
export async function purgeList(options: { db: Database; userId: string; id: string }): Promise<void> {
  await getDeletedListRow(options);
  // Still in the bin at the moment of deleting: a restore in between must not lose a live list.
  await options.db
    .delete(contactLists)
    .where(
      and(
        eq(contactLists.id, options.id),
        eq(contactLists.userId, options.userId),
        isNotNull(contactLists.deletedAt),
      ),
    );
}

/** The purge job: lists deleted more than 30 days ago. Idempotent. */
export async function purgeExpiredLists({ db }: { db: Database }): Promise<number> {
  const cutoff = new Date(now().getTime() - LIST_RECYCLE_BIN_DAYS * DAY_MS);
  const deleted = await db
    .delete(contactLists)
    .where(and(isNotNull(contactLists.deletedAt), lt(contactLists.deletedAt, cutoff)))
    .returning({ id: contactLists.id });
  return deleted.length;
}

// ---------------------------------------------------------------------------------------------------
// List members

export async function listListContacts(options: {
  db: Database;
  userId: string;
  listId: string;
  q?: string;
  cursor?: string;
  limit: number;
}): Promise<{ items: ListContact[]; nextCursor: string | null }> {
  await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  const after = decodeCursor('members', options.cursor, 1);
  const conditions: SQL[] = [
    eq(listContacts.userId, options.userId),
    eq(listContacts.listId, options.listId),
  ];
  if (after) conditions.push(gt(listContacts.id, Number(after[0])));
  if (options.q) {
    const pattern = `%${escapeLike(options.q)}%`;
    conditions.push(
      or(
        ilike(listContacts.emailNormalized, pattern),
        ilike(listContacts.firstName, pattern),
        ilike(listContacts.lastName, pattern),
        ilike(listContacts.company, pattern),
      )!,
    );
  }
  const rows = await options.db
    .select()
    .from(listContacts)
    .where(and(...conditions))
    .orderBy(asc(listContacts.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    items: page.map(toListContactDto),
    nextCursor: rows.length > options.limit && last ? encodeCursor('members', [Number(last.id)]) : null,
  };
}

export interface ListContactFields {
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  jobTitle?: string | null;
  phone?: string | null;
  website?: string | null;
  city?: string | null;
  countryCode?: string | null;
  customFields?: Record<string, string>;
}

function assertKnownCustomFields(list: ListRow, values: Record<string, string> | undefined): void {
  if (!values) return;
  const unknown = Object.keys(values).filter((key) => !(list.customFields ?? []).includes(key));
  if (unknown.length > 0) {
    throw new AppError(
      'validation',
      `Unknown custom field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Add ${unknown.length > 1 ? 'them' : 'it'} to the list first.`,
      { errors: [{ path: 'customFields', message: `Unknown custom field: ${unknown[0]}` }] },
    );
  }
}

function fieldValues(fields: ListContactFields) {
  const values: Partial<typeof listContacts.$inferInsert> = {};
  for (const key of [
    'firstName',
    'lastName',
    'company',
    'jobTitle',
    'phone',
    'website',
    'city',
    'countryCode',
  ] as const) {
    if (fields[key] !== undefined) values[key] = fields[key];
  }
  if (fields.email !== undefined) {
    values.email = normalizeEmail(fields.email);
    values.emailNormalized = emailDedupeKey(fields.email);
    values.roleAddress = isRoleAddress(fields.email);
  }
  return values;
}

export async function addListContact(options: {
  db: Database;
  actor: ContactsActor;
  listId: string;
  fields: ListContactFields & { email: string };
  /** How the member came: by hand unless a confirmed subscribe form added them. */
  source?: 'manual' | 'signup_form';
}): Promise<ListContact> {
  const userId = options.actor.id;
  await assertNotErased({ db: options.db, email: options.fields.email });
  return options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await lockUserContacts({ db: tx, userId });
    const list = await getListRow({ db: tx, userId, id: options.listId, forNewMembers: true });
    assertKnownCustomFields(list, options.fields.customFields);
    const [inserted] = await tx
      .insert(listContacts)
      .values({
        userId,
        listId: list.id,
        source: options.source ?? 'manual',
        ...(fieldValues(options.fields) as { email: string; emailNormalized: string }),
        customFields: options.fields.customFields ?? {},
      })
      .onConflictDoNothing({ target: [listContacts.listId, listContacts.emailNormalized] })
      .returning();
    if (!inserted) throw new AppError('conflict', CONTACT_MESSAGES.duplicateListContact);
    await assertRecipientCapacity({
      db: tx,
      actor: options.actor,
      used: (await countRecipients({ db: tx, userId })) - 1,
      adding: 1,
    });
    return toListContactDto(inserted);
  });
}

export async function updateListContact(options: {
  db: Database;
  userId: string;
  listId: string;
  contactId: number;
  fields: ListContactFields;
}): Promise<ListContact> {
  const list = await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  assertKnownCustomFields(list, options.fields.customFields);
  if (options.fields.email !== undefined)
    await assertNotErased({ db: options.db, email: options.fields.email });
  const where = and(
    eq(listContacts.id, options.contactId),
    eq(listContacts.userId, options.userId),
    eq(listContacts.listId, options.listId),
  );
  const [existing] = await options.db.select().from(listContacts).where(where).limit(1);
  if (!existing) throw notFound(CONTACT_NOT_FOUND);
  try {
    const [row] = await options.db
      .update(listContacts)
      .set({
        ...fieldValues(options.fields),
        // Values merge: a field left out keeps its value; an empty string clears it.
        ...(options.fields.customFields
          ? {
              customFields: Object.fromEntries(
                Object.entries({ ...existing.customFields, ...options.fields.customFields }).filter(
                  ([, value]) => value !== '',
                ),
              ),
            }
          : {}),
        updatedAt: now(),
      })
      .where(where)
      .returning();
    return toListContactDto(row!);
  } catch (error) {
    if (isUniqueViolation(error, 'list_contacts_list_email_key'))
      throw new AppError('conflict', CONTACT_MESSAGES.duplicateListContact);
    throw error;
  }
}

export async function removeListContacts(options: {
  db: Database;
  userId: string;
  listId: string;
  ids: number[];
}): Promise<number> {
  await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  const deleted = await options.db
    .delete(listContacts)
    .where(
      and(
        eq(listContacts.userId, options.userId),
        eq(listContacts.listId, options.listId),
        inArray(listContacts.id, options.ids),
      ),
    )
    .returning({ id: listContacts.id });
  return deleted.length;
}

/** Keyset batches of a list's members, for the export and (later) sending. */
export async function* listContactBatches(options: {
  db: Database;
  userId: string;
  listId: string;
  batchSize?: number;
}): AsyncGenerator<ListContactRow[]> {
  let lastId = 0;
  for (;;) {
    const rows = await options.db
      .select()
      .from(listContacts)
      .where(
        and(
          eq(listContacts.userId, options.userId),
          eq(listContacts.listId, options.listId),
          gt(listContacts.id, lastId),
        ),
      )
      .orderBy(asc(listContacts.id))
      .limit(options.batchSize ?? 2_000);
    if (rows.length === 0) return;
    yield rows;
    lastId = Number(rows.at(-1)!.id);
  }
}
