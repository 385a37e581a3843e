import type { Database } from '@server/db/client';
import { directoryContacts as t } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { categoriesMatching } from '@shared/categories';
import type { ContactSource, LeadSort, VerificationStatus } from '@shared/contacts';
import {
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  ne,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** The filters lead discovery and the admin directory share. */
export interface DirectoryFilters {
  country?: string[];
  city?: string[];
  category?: string[];
  q?: string;
  verifiedOnly?: boolean;
  verification?: 'verified' | 'unverified';
  verifiedWithinDays?: number;
  hasPhone?: boolean;
  hasWebsite?: boolean;
}

/** Admin-only filters; lead discovery always sees live (not deleted, not invalid) contacts. */
export interface AdminDirectoryFilters extends DirectoryFilters {
  source?: ContactSource[];
  status?: VerificationStatus[];
  includeDeleted?: boolean;
  deletedOnly?: boolean;
}

export type DirectoryRow = typeof t.$inferSelect;

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const oneOrMany = (column: PgColumn, values: string[]) =>
  values.length === 1 ? eq(column, values[0]!) : inArray(column, values);

/** What lead discovery shows: matches the roll-up's definition in the contacts migration. */
export const liveForLeads = () => [isNull(t.deletedAt), ne(t.verificationStatus, 'invalid')];

export const hasPhoneSql = sql`coalesce(${t.phone}, '') <> ''`;
export const hasWebsiteSql = sql`coalesce(${t.website}, '') <> ''`;

/**
 * A category word as keyword ("haulage") also finds that category's contacts, unless the category
 * filter already rules the category out.
 */
export function keywordCategories(filters: DirectoryFilters): string[] {
  if (!filters.q) return [];
  return categoriesMatching(filters.q).filter(
    (slug) => !filters.category?.length || filters.category.includes(slug),
  );
}

/**
 * Whether the keyword is a rare-name search: trigram matches only, no whole category OR-ed in. Those
 * are sorted after fetching the matches (see keyset); a category-wide match is dense enough to walk the
 * sort index.
 */
export function isNameOnlyKeyword(filters: DirectoryFilters): boolean {
  return Boolean(filters.q) && keywordCategories(filters).length === 0;
}

/** Any of the filters that ask for verified contacts only. */
export const wantsVerified = (filters: DirectoryFilters) =>
  Boolean(filters.verifiedOnly || filters.verification === 'verified' || filters.verifiedWithinDays);

/** The WHERE terms of a filter set (without the liveness terms). */
export function filterConditions(filters: DirectoryFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.country?.length) conditions.push(oneOrMany(t.countryCode, filters.country));
  if (filters.category?.length) conditions.push(oneOrMany(t.category, filters.category));
  if (filters.city?.length) conditions.push(oneOrMany(t.city, filters.city));
  if (wantsVerified(filters)) conditions.push(eq(t.verificationStatus, 'verified'));
  else if (filters.verification === 'unverified') conditions.push(eq(t.verificationStatus, 'unverified'));
  if (filters.verifiedWithinDays) {
    conditions.push(gte(t.verifiedAt, new Date(now().getTime() - filters.verifiedWithinDays * 86_400_000)));
  }
  if (filters.hasPhone) conditions.push(hasPhoneSql);
  if (filters.hasWebsite) conditions.push(hasWebsiteSql);
  if (filters.q) {
    const categories = keywordCategories(filters);
    conditions.push(
      categories.length
        ? or(nameMatches(filters.q), inArray(t.category, categories))!
        : nameMatches(filters.q),
    );
  }
  return conditions;
}

/** ILIKE '%term%' on either name, served by the trigram GIN indexes. */
export function nameMatches(q: string): SQL {
  const pattern = `%${escapeLike(q)}%`;
  return sql`(${t.companyName} ILIKE ${pattern} OR ${t.contactName} ILIKE ${pattern})`;
}

export function adminConditions(filters: AdminDirectoryFilters): SQL[] {
  const conditions = filterConditions(filters);
  if (filters.deletedOnly) conditions.push(isNotNull(t.deletedAt));
  else if (!filters.includeDeleted) conditions.push(isNull(t.deletedAt));
  if (filters.source?.length) conditions.push(inArray(t.source, filters.source));
  if (filters.status?.length) conditions.push(inArray(t.verificationStatus, filters.status));
  return conditions;
}

/**
 * ORDER BY and the keyset condition of a sort, from the previous page's last row.
 *
 * With a keyword the sort key is wrapped in a no-op expression (`|| ''`, `+ interval '0'`): trigram
 * selectivity estimates are poor, and a planner that expects many matches walks the sort index and
 * filters, which takes seconds when the keyword is rare. Wrapped, it fetches the (few) trigram matches
 * through the GIN indexes and sorts them. The order is the same, so the keyset condition still holds.
 */
function keyset(
  sort: LeadSort,
  cursor: string | undefined,
  keyword: boolean,
): { order: SQL[]; after: SQL | null } {
  if (sort === 'newest') {
    const last = decodeCursor(sort, cursor, 2);
    const key = keyword ? sql`(${t.createdAt} + interval '0 seconds')` : t.createdAt;
    return {
      order: [desc(key), desc(t.id)],
      after: last
        ? sql`(${t.createdAt}, ${t.id}) < (${String(last[0])}::timestamptz, ${String(last[1])}::uuid)`
        : null,
    };
  }
  const last = decodeCursor(sort, cursor, 2);
  const ascending = sort === 'company_asc';
  const comparison = ascending ? sql`>` : sql`<`;
  const key = keyword ? sql`(${t.companyName} || '')` : t.companyName;
  return {
    order: ascending ? [asc(key), asc(t.id)] : [desc(key), desc(t.id)],
    after: last
      ? sql`(${t.companyName}, ${t.id}) ${comparison} (${String(last[0])}, ${String(last[1])}::uuid)`
      : null,
  };
}

/** One keyset page of directory rows matching `conditions`. */
export async function pageDirectory(options: {
  db: Database;
  conditions: SQL[];
  sort: LeadSort;
  cursor?: string;
  limit: number;
  /** A keyword filter is among the conditions (see keyset). */
  keyword?: boolean;
}): Promise<{ rows: DirectoryRow[]; nextCursor: string | null }> {
  const { order, after } = keyset(options.sort, options.cursor, options.keyword ?? false);
  const rows = await options.db
    .select({ row: t, createdAtText: sql<string>`${t.createdAt}::text` })
    .from(t)
    .where(and(...options.conditions, ...(after ? [after] : [])))
    .orderBy(...order)
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > options.limit && last
      ? options.sort === 'newest'
        ? encodeCursor(options.sort, [last.createdAtText, last.row.id])
        : encodeCursor(options.sort, [last.row.companyName, last.row.id])
      : null;
  return { rows: page.map((r) => r.row), nextCursor };
}

/** An exact count that stops at `cap` (the answer is then "cap+"). */
export async function countDirectoryCapped(options: {
  db: Database;
  conditions: SQL[];
  cap: number;
}): Promise<{ count: number; capped: boolean }> {
  const limited = options.db
    .select({ one: sql`1` })
    .from(t)
    .where(and(...options.conditions))
    .limit(options.cap + 1)
    .as('limited');
  const [row] = await options.db.select({ n: sql<number>`count(*)::int` }).from(limited);
  const n = Number(row?.n ?? 0);
  return n > options.cap ? { count: options.cap, capped: true } : { count: n, capped: false };
}

/** The roll-up expression holding the count of rows that have every required flag. */
function facetColumn(filters: DirectoryFilters): SQL {
  const flags = `${filters.hasPhone ? 'p' : ''}${filters.hasWebsite ? 'w' : ''}`;
  const columns: Record<string, [string, string]> = {
    '': ['total', 'verified'],
    p: ['with_phone', 'verified_phone'],
    w: ['with_website', 'verified_website'],
    pw: ['phone_website', 'verified_phone_website'],
  };
  const [all, verified] = columns[flags]!;
  if (wantsVerified(filters)) return sql.identifier(verified) as unknown as SQL;
  // Live rows are verified or unverified (invalid ones are not in the roll-up).
  if (filters.verification === 'unverified')
    return sql`(${sql.identifier(all)} - ${sql.identifier(verified)})`;
  return sql.identifier(all) as unknown as SQL;
}

/** Audience size from the roll-up table (no keyword): a few thousand rows at most. */
export async function countFromFacets(options: { db: Database; filters: DirectoryFilters }): Promise<number> {
  const { filters } = options;
  const terms: SQL[] = [];
  const list = (values: string[]) =>
    sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
  if (filters.country?.length) terms.push(sql`country_code IN (${list(filters.country)})`);
  if (filters.category?.length) terms.push(sql`category IN (${list(filters.category)})`);
  terms.push(filters.city?.length ? sql`city IN (${list(filters.city)})` : sql`city = ''`);
  const result = await options.db.execute<{ n: string | number }>(
    sql`SELECT coalesce(sum(${facetColumn(filters)}), 0)::bigint AS n FROM directory_facet_counts WHERE ${sql.join(terms, sql` AND `)}`,
  );
  const rows = (result as unknown as { rows: { n: string | number }[] }).rows;
  return Number(rows[0]?.n ?? 0);
}

/**
 * Audience of a keyword search. A keyword naming categories matches those categories whole (read from
 * the roll-up) plus name matches in other categories, counted up to what is left of the cap: exact below
 * the cap, a lower bound ("capped") from it on. When the categories alone reach the cap the name matches
 * are not counted at all: proving how few of them lie outside the categories means reading every one
 * (the name "Pharmacy" is ~130,000 rows at ten million contacts, nearly all in the pharmacies category,
 * which a trigram index cannot exclude), and the answer would still be "at least" the cap.
 */
export async function countKeywordAudience(options: {
  db: Database;
  filters: DirectoryFilters & { q: string };
  live: SQL[];
  cap: number;
}): Promise<{ count: number; capped: boolean }> {
  const { q, ...rest } = options.filters;
  const categories = keywordCategories(options.filters);
  const whole = categories.length
    ? await countFromFacets({ db: options.db, filters: { ...rest, category: categories } })
    : 0;
  if (whole >= options.cap) return { count: whole, capped: true };
  const names = await countDirectoryCapped({
    db: options.db,
    conditions: [
      ...options.live,
      ...filterConditions(rest),
      nameMatches(q),
      ...(categories.length ? [notInArray(t.category, categories)] : []),
    ],
    cap: options.cap - whole,
  });
  return { count: whole + names.count, capped: names.capped };
}
