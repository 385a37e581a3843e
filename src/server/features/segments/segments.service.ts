import type { Database } from '@server/db/client';
import { campaigns, listContacts, newsletters, segments } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import {
  SEGMENT_MESSAGES,
  type Segment,
  type SegmentMatch,
  type SegmentRule,
  type SegmentWithCount,
} from '@shared/segments';
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { getListRow } from '../lists/lists.service';
import { notSuppressedSql } from '../suppression/suppression.service';
import { segmentCondition } from './segment-sql';

/*
 * Segments: saved rules narrowing one list. The audience resolver (campaigns/audience.service.ts) asks
 * `segmentFilters` for the condition of each list it walks, and the count asks `countAudience` with the
 * same condition plus the resolver's own exclusions (no address, suppressed), so the count a user sees is
 * who a send reaches.
 */

type SegmentRow = typeof segments.$inferSelect;

function toDto(row: SegmentRow): Segment {
  return {
    id: row.id,
    listId: row.listId,
    name: row.name,
    match: row.match,
    rules: row.rules,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Custom-field rules must name one of the list's custom fields (the schema cannot know the list). */
function checkCustomFields(customFields: readonly string[], rules: readonly SegmentRule[]): void {
  const errors = rules.flatMap((rule, i) =>
    rule.type === 'custom' && !customFields.includes(rule.field)
      ? [{ path: `rules.${i}.field`, message: SEGMENT_MESSAGES.unknownCustomField }]
      : [],
  );
  if (errors.length > 0) throw new AppError('validation', SEGMENT_MESSAGES.unknownCustomField, { errors });
}

/** The list is the user's and live (404 otherwise), and the rules fit it. */
async function checkDefinition(db: Database, userId: string, listId: string, rules: readonly SegmentRule[]) {
  const list = await getListRow({ db, userId, id: listId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'not_found')
      throw notFound(SEGMENT_MESSAGES.listNotFound);
    throw error;
  });
  checkCustomFields(list.customFields, rules);
}

/** The members of a list a send would reach, narrowed by the rules: as the audience resolver walks them. */
function audienceCondition(options: {
  userId: string;
  listId: string;
  match: SegmentMatch;
  rules: readonly SegmentRule[];
}): SQL {
  return and(
    eq(listContacts.userId, options.userId),
    eq(listContacts.listId, options.listId),
    // The resolver skips an address without @ and the suppressed ones (audience.service.ts).
    sql`strpos(${listContacts.emailNormalized}, '@') > 0`,
    notSuppressedSql(options.userId, sql`${listContacts.emailNormalized}`),
    segmentCondition({ ...options, at: now() }),
  )!;
}

async function countAudience(
  db: Database,
  options: { userId: string; listId: string; match: SegmentMatch; rules: readonly SegmentRule[] },
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(listContacts).where(audienceCondition(options));
  return Number(row?.n ?? 0);
}

/** The builder's live count for rules not saved yet. */
export async function countSegmentRules(options: {
  db: Database;
  userId: string;
  listId: string;
  match: SegmentMatch;
  rules: SegmentRule[];
}): Promise<{ count: number }> {
  await checkDefinition(options.db, options.userId, options.listId, options.rules);
  return { count: await countAudience(options.db, options) };
}

export async function listSegments(options: {
  db: Database;
  userId: string;
  listId?: string;
}): Promise<Segment[]> {
  const rows = await options.db
    .select()
    .from(segments)
    .where(
      and(
        eq(segments.userId, options.userId),
        options.listId ? eq(segments.listId, options.listId) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${segments.name})`), asc(segments.id));
  return rows.map(toDto);
}

async function getRow(db: Database, userId: string, id: string): Promise<SegmentRow> {
  const [row] = await db
    .select()
    .from(segments)
    .where(and(eq(segments.id, id), eq(segments.userId, userId)))
    .limit(1);
  if (!row) throw notFound(SEGMENT_MESSAGES.notFound);
  return row;
}

/** One segment with its audience now. */
export async function getSegment(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<SegmentWithCount> {
  const row = await getRow(options.db, options.userId, options.id);
  return { ...toDto(row), count: await countAudience(options.db, { ...row, userId: options.userId }) };
}

function isDuplicateName(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause ?? error;
  return (cause as { code?: string })?.code === '23505';
}

export async function createSegment(options: {
  db: Database;
  userId: string;
  input: { listId: string; name: string; match: SegmentMatch; rules: SegmentRule[] };
}): Promise<SegmentWithCount> {
  const { db, userId, input } = options;
  await checkDefinition(db, userId, input.listId, input.rules);
  const at = now();
  const [row] = await db
    .insert(segments)
    .values({ userId, ...input, createdAt: at, updatedAt: at })
    .returning()
    .catch((error: unknown) => {
      if (isDuplicateName(error)) throw duplicateName();
      throw error;
    });
  return { ...toDto(row!), count: await countAudience(db, { ...row!, userId }) };
}

const duplicateName = () =>
  new AppError('conflict', SEGMENT_MESSAGES.duplicateName, {
    errors: [{ path: 'name', message: SEGMENT_MESSAGES.duplicateName }],
  });

export async function updateSegment(options: {
  db: Database;
  userId: string;
  id: string;
  input: { name?: string; match?: SegmentMatch; rules?: SegmentRule[] };
}): Promise<SegmentWithCount> {
  const { db, userId, input } = options;
  const current = await getRow(db, userId, options.id);
  if (input.rules) await checkDefinition(db, userId, current.listId, input.rules);
  const [row] = await db
    .update(segments)
    .set({ ...input, updatedAt: now() })
    .where(and(eq(segments.id, current.id), eq(segments.userId, userId)))
    .returning()
    .catch((error: unknown) => {
      if (isDuplicateName(error)) throw duplicateName();
      throw error;
    });
  if (!row) throw notFound(SEGMENT_MESSAGES.notFound);
  return { ...toDto(row), count: await countAudience(db, { ...row, userId }) };
}

/**
 * What still needs this segment to pick its audience: newsletters and bulk emails not sent yet (draft,
 * scheduled, or queueing right now) and campaigns not launched yet. Once sent or launched, the audience
 * is copied into the campaign's contacts and the segment is no longer read.
 */
async function usersOf(db: Database, userId: string, id: string): Promise<string[]> {
  const [mail, drafts] = await Promise.all([
    db
      .select({ name: newsletters.name, kind: newsletters.kind })
      .from(newsletters)
      .where(
        and(
          eq(newsletters.userId, userId),
          inArray(newsletters.status, ['draft', 'scheduled', 'sending']),
          isNull(newsletters.deletedAt),
          sql`${id}::uuid = ANY(${newsletters.segmentIds})`,
        ),
      ),
    db
      .select({ name: campaigns.name })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.userId, userId),
          eq(campaigns.kind, 'campaign'),
          inArray(campaigns.status, ['draft', 'scheduled']),
          isNull(campaigns.deletedAt),
          sql`${campaigns.audience} -> 'segmentIds' ? ${id}`,
        ),
      ),
  ]);
  return [
    ...mail.map((m) => `the ${m.kind === 'bulk' ? 'bulk email' : 'newsletter'} “${m.name}”`),
    ...drafts.map((c) => `the campaign “${c.name}”`),
  ];
}

/**
 * Deletes a segment. One still chosen as an audience is refused (409 naming where): silently widening a
 * scheduled send to the whole list would mail people the user meant to leave out.
 */
export async function deleteSegment(options: { db: Database; userId: string; id: string }): Promise<void> {
  const { db, userId } = options;
  const row = await getRow(db, userId, options.id);
  const users = await usersOf(db, userId, row.id);
  if (users.length > 0) {
    throw new AppError('conflict', SEGMENT_MESSAGES.inUse(users));
  }
  await db.delete(segments).where(and(eq(segments.id, row.id), eq(segments.userId, userId)));
}

/**
 * For the audience resolver and the send checks: each chosen segment's condition, by the list it
 * narrows. The segments must be the user's (404), their lists among the chosen ones and at most one per
 * list (400).
 */
export async function segmentFilters(options: {
  db: Database;
  userId: string;
  listIds: readonly string[];
  segmentIds: readonly string[];
}): Promise<Map<string, SQL>> {
  const filters = new Map<string, SQL>();
  const ids = [...new Set(options.segmentIds)];
  if (ids.length === 0) return filters;
  const rows = await options.db
    .select()
    .from(segments)
    .where(and(eq(segments.userId, options.userId), inArray(segments.id, ids)));
  if (rows.length !== ids.length) throw notFound(SEGMENT_MESSAGES.notFound);
  const at = now();
  for (const row of rows) {
    if (!options.listIds.includes(row.listId)) {
      throw new AppError('validation', SEGMENT_MESSAGES.notInAudience, {
        errors: [{ path: 'segmentIds', message: SEGMENT_MESSAGES.notInAudience }],
      });
    }
    if (filters.has(row.listId)) {
      throw new AppError('validation', SEGMENT_MESSAGES.oneSegmentPerList, {
        errors: [{ path: 'segmentIds', message: SEGMENT_MESSAGES.oneSegmentPerList }],
      });
    }
    filters.set(
      row.listId,
      segmentCondition({ userId: options.userId, match: row.match, rules: row.rules, at }),
    );
  }
  return filters;
}
