import type { Database } from '@server/db/client';
import { directoryContacts as t } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { isUniqueViolation } from '@server/lib/db-errors';
import { AppError, notFound } from '@server/lib/errors';
import {
  CONTACT_MESSAGES,
  type ContactSource,
  type LeadSort,
  normalizeEmail,
  type VerificationStatus,
} from '@shared/contacts';
import type { DirectoryContact } from '@shared/directory';
import { and, asc, eq, gte, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import isEmail from 'validator/lib/isEmail.js';
import isURL from 'validator/lib/isURL.js';
import { canonicalCity, isKnownCountry } from '../reference/reference.service';
import { assertNotErased } from '../suppression/suppression.service';
import { type DirectoryRow, pageDirectory } from './directory.queries';

// The directory's shared queries, for the features that filter and count leads (leads, lists, campaigns).
export {
  countDirectoryCapped,
  countFromFacets,
  countKeywordAudience,
  type DirectoryFilters,
  type DirectoryRow,
  escapeLike,
  filterConditions,
  isNameOnlyKeyword,
  liveForLeads,
  pageDirectory,
} from './directory.queries';

/*
 * The shared directory as staff edit it: data entry officers add and verify contacts, super admins
 * search, edit and bulk-manage them (see directory-admin.service.ts). Lead discovery reads it.
 */

const NOT_FOUND = 'Contact not found';

export function toDirectoryContactDto(row: DirectoryRow): DirectoryContact {
  return {
    id: row.id,
    companyName: row.companyName,
    contactName: row.contactName,
    jobTitle: row.jobTitle,
    email: row.email,
    phone: row.phone,
    website: row.website,
    address: row.address,
    city: row.city,
    countryCode: row.countryCode,
    category: row.category,
    source: row.source,
    sourceUrl: row.sourceUrl,
    synthetic: row.synthetic,
    verificationStatus: row.verificationStatus,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    verifiedBy: row.verifiedBy,
    invalidReason: row.invalidReason,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

export interface DirectoryContactFields {
  companyName?: string;
  contactName?: string | null;
  jobTitle?: string | null;
  email?: string;
  phone?: string | null;
  website?: string | null;
  address?: string | null;
  city?: string | null;
  countryCode?: string;
  category?: string;
}

const fieldError = (path: string, message: string) =>
  new AppError('validation', message, { errors: [{ path, message }] });

/** `example.com/about` → `https://example.com/about`; refuses what is not a web address. */
export function normalizeWebsite(value: string): string {
  const trimmed = value.trim();
  const withScheme = /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  if (!isURL(withScheme, { protocols: ['http', 'https'], require_tld: true, require_protocol: true })) {
    throw fieldError('website', 'Enter a valid website address, such as example.com');
  }
  const url = new URL(withScheme);
  const path = url.pathname === '/' && !trimmed.endsWith('/') ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** Keeps the digits, a leading +, and the usual separators; refuses anything else. */
export function normalizePhone(value: string): string {
  const collapsed = value.trim().replace(/\s+/g, ' ');
  const digits = collapsed.replace(/\D/g, '');
  if (!/^\+?[0-9 ()\-./]+$/.test(collapsed) || digits.length < 6 || digits.length > 15) {
    throw fieldError('phone', 'Enter a valid phone number, such as +234 803 123 4567');
  }
  return collapsed;
}

/** Validates and normalises what a person typed; only the fields given are returned. */
function normalizeFields(fields: DirectoryContactFields, countryForCity: string | undefined) {
  const values: Partial<typeof t.$inferInsert> = {};
  if (fields.companyName !== undefined) values.companyName = fields.companyName.trim().replace(/\s+/g, ' ');
  if (fields.contactName !== undefined) values.contactName = fields.contactName?.replace(/\s+/g, ' ') ?? null;
  if (fields.jobTitle !== undefined) values.jobTitle = fields.jobTitle;
  if (fields.address !== undefined) values.address = fields.address;
  if (fields.category !== undefined) values.category = fields.category;
  if (fields.email !== undefined) {
    const email = normalizeEmail(fields.email);
    if (!isEmail(email, { allow_utf8_local_part: false, require_tld: true })) {
      throw fieldError('email', CONTACT_MESSAGES.invalidEmail);
    }
    values.email = email;
  }
  if (fields.countryCode !== undefined) {
    if (!isKnownCountry(fields.countryCode)) throw fieldError('countryCode', 'Unknown country');
    values.countryCode = fields.countryCode.toUpperCase();
  }
  if (fields.phone !== undefined) values.phone = fields.phone ? normalizePhone(fields.phone) : null;
  if (fields.website !== undefined) values.website = fields.website ? normalizeWebsite(fields.website) : null;
  if (fields.city !== undefined)
    values.city = countryForCity ? canonicalCity(countryForCity, fields.city) : fields.city;
  return values;
}

async function findLiveByEmail(db: Database, email: string, exceptId?: string): Promise<DirectoryRow | null> {
  const [row] = await db
    .select()
    .from(t)
    .where(
      and(
        sql`lower(${t.email}) = lower(${email})`,
        isNull(t.deletedAt),
        ...(exceptId ? [sql`${t.id} <> ${exceptId}::uuid`] : []),
      ),
    )
    .limit(1);
  return row ?? null;
}

function duplicateError(existing: DirectoryRow): AppError {
  return new AppError('duplicate', CONTACT_MESSAGES.duplicateDirectoryContact, {
    existing: toDirectoryContactDto(existing),
  });
}

/** Adds a contact to the directory; an existing address answers 409 with that contact (no force). */
export async function createDirectoryContact(options: {
  db: Database;
  actorId: string;
  fields: Required<Pick<DirectoryContactFields, 'companyName' | 'email' | 'countryCode' | 'category'>> &
    DirectoryContactFields;
  source?: ContactSource;
  /** A scraped record's page and the date it was crawled. */
  provenance?: { sourceUrl: string; crawledAt: Date };
}): Promise<DirectoryContact> {
  const values = normalizeFields(options.fields, options.fields.countryCode);
  await assertNotErased({ db: options.db, email: values.email! });
  const existing = await findLiveByEmail(options.db, values.email!);
  if (existing) throw duplicateError(existing);
  try {
    const [row] = await options.db
      .insert(t)
      .values({
        ...(values as typeof t.$inferInsert),
        source: options.source ?? 'data_entry',
        sourceUrl: options.provenance?.sourceUrl ?? null,
        sourceCrawledAt: options.provenance?.crawledAt ?? null,
        createdBy: options.actorId,
      })
      .returning();
    return toDirectoryContactDto(row!);
  } catch (error) {
    if (isUniqueViolation(error, 'directory_contacts_email_key')) {
      const raced = await findLiveByEmail(options.db, values.email!);
      if (raced) throw duplicateError(raced);
    }
    throw error;
  }
}

export async function getDirectoryRow(options: {
  db: Database;
  id: string;
  includeDeleted?: boolean;
}): Promise<DirectoryRow> {
  const [row] = await options.db
    .select()
    .from(t)
    .where(and(eq(t.id, options.id), ...(options.includeDeleted ? [] : [isNull(t.deletedAt)])))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

export async function getDirectoryContact(options: { db: Database; id: string; includeDeleted?: boolean }) {
  return toDirectoryContactDto(await getDirectoryRow(options));
}

export async function updateDirectoryContact(options: {
  db: Database;
  id: string;
  fields: DirectoryContactFields;
  includeDeleted?: boolean;
}): Promise<{ before: DirectoryRow; after: DirectoryContact }> {
  const before = await getDirectoryRow(options);
  const values = normalizeFields(options.fields, options.fields.countryCode ?? before.countryCode);
  if (values.email) await assertNotErased({ db: options.db, email: values.email });
  if (values.email && before.deletedAt === null) {
    const existing = await findLiveByEmail(options.db, values.email, before.id);
    if (existing) throw duplicateError(existing);
  }
  try {
    const [row] = await options.db
      .update(t)
      .set({ ...values, updatedAt: now() })
      .where(eq(t.id, before.id))
      .returning();
    return { before, after: toDirectoryContactDto(row!) };
  } catch (error) {
    if (isUniqueViolation(error, 'directory_contacts_email_key') && values.email) {
      const raced = await findLiveByEmail(options.db, values.email, before.id);
      if (raced) throw duplicateError(raced);
    }
    throw error;
  }
}

/** Marks a live contact verified or invalid (with a reason), recording who did it and when. */
export async function verifyDirectoryContact(options: {
  db: Database;
  actorId: string;
  id: string;
  status: Extract<VerificationStatus, 'verified' | 'invalid'>;
  reason?: string | null;
}): Promise<DirectoryContact> {
  if (options.status === 'invalid' && !options.reason) {
    throw fieldError('reason', CONTACT_MESSAGES.invalidNeedsReason);
  }
  const current = await getDirectoryRow({ db: options.db, id: options.id });
  if (current.synthetic && options.status === 'verified') {
    throw new AppError('conflict', CONTACT_MESSAGES.sampleNotVerifiable, { reason: 'sample_data' });
  }
  const [row] = await options.db
    .update(t)
    .set({
      verificationStatus: options.status,
      verifiedAt: now(),
      verifiedBy: options.actorId,
      invalidReason: options.status === 'invalid' ? options.reason! : null,
      updatedAt: now(),
    })
    .where(eq(t.id, options.id))
    .returning();
  return toDirectoryContactDto(row!);
}

/** Unverified live contacts, oldest first (keyset on created_at, id). */
export async function listVerificationQueue(options: {
  db: Database;
  country?: string[];
  category?: string[];
  cursor?: string;
  limit: number;
}): Promise<{ items: DirectoryContact[]; nextCursor: string | null }> {
  const after = decodeCursor('queue', options.cursor, 2);
  // Sample data is never verified (it names no real business): officers' time goes to real records.
  const conditions: SQL[] = [
    isNull(t.deletedAt),
    eq(t.verificationStatus, 'unverified'),
    eq(t.synthetic, false),
  ];
  if (options.country?.length) conditions.push(inArray(t.countryCode, options.country));
  if (options.category?.length) conditions.push(inArray(t.category, options.category));
  if (after) {
    conditions.push(
      sql`(${t.createdAt}, ${t.id}) > (${String(after[0])}::timestamptz, ${String(after[1])}::uuid)`,
    );
  }
  const rows = await options.db
    .select({ row: t, createdAtText: sql<string>`${t.createdAt}::text` })
    .from(t)
    .where(and(...conditions))
    .orderBy(asc(t.createdAt), asc(t.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toDirectoryContactDto(r.row)),
    nextCursor:
      rows.length > options.limit && last ? encodeCursor('queue', [last.createdAtText, last.row.id]) : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Data entry stats

/** YYYY-MM-DD of `date` in `timeZone`. */
function localDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

function shiftDate(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function assertTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw fieldError('tz', 'Unknown time zone');
  }
}

/** What one officer did today and over the last 7 days (their time zone), plus the team's queue size. */
export async function getDataEntryStats(options: { db: Database; userId: string; timeZone?: string }) {
  const timeZone = options.timeZone ?? 'UTC';
  assertTimeZone(timeZone);
  const today = localDate(now(), timeZone);
  const first = shiftDate(today, -6);
  // A superset of the 7 local days; the exact days are cut by the local date below.
  const since = new Date(now().getTime() - 8 * 86_400_000);
  const localDay = (column: typeof t.createdAt | typeof t.verifiedAt) =>
    sql<string>`((${column} AT TIME ZONE ${timeZone})::date)::text`;

  const [added, checked, queue] = await Promise.all([
    options.db
      .select({ day: localDay(t.createdAt), n: sql<number>`count(*)::int` })
      .from(t)
      .where(and(eq(t.createdBy, options.userId), gte(t.createdAt, since)))
      .groupBy(sql`1`),
    options.db
      .select({
        day: localDay(t.verifiedAt),
        verified: sql<number>`count(*) FILTER (WHERE ${t.verificationStatus} = 'verified')::int`,
        invalidated: sql<number>`count(*) FILTER (WHERE ${t.verificationStatus} = 'invalid')::int`,
      })
      .from(t)
      .where(and(eq(t.verifiedBy, options.userId), gte(t.verifiedAt, since)))
      .groupBy(sql`1`),
    options.db
      .select({ n: sql<number>`count(*)::int` })
      .from(t)
      .where(and(isNull(t.deletedAt), eq(t.verificationStatus, 'unverified'), eq(t.synthetic, false))),
  ]);

  const daily = Array.from({ length: 7 }, (_, i) => {
    const date = shiftDate(first, i);
    const checkedDay = checked.find((r) => r.day === date);
    return {
      date,
      added: Number(added.find((r) => r.day === date)?.n ?? 0),
      verified: Number(checkedDay?.verified ?? 0),
      invalidated: Number(checkedDay?.invalidated ?? 0),
    };
  });
  const sum = (key: 'added' | 'verified' | 'invalidated') => daily.reduce((total, d) => total + d[key], 0);
  const { date: _date, ...todayCounts } = daily.at(-1)!;
  return {
    timeZone,
    today: todayCounts,
    last7Days: { added: sum('added'), verified: sum('verified'), invalidated: sum('invalidated') },
    daily,
    queueSize: Number(queue[0]?.n ?? 0),
  };
}

// ---------------------------------------------------------------------------------------------------
// Admin search

export async function pageAdminDirectory(options: {
  db: Database;
  conditions: SQL[];
  sort: LeadSort;
  cursor?: string;
  limit: number;
  keyword?: boolean;
}) {
  const { rows, nextCursor } = await pageDirectory(options);
  return { items: rows.map(toDirectoryContactDto), nextCursor };
}
