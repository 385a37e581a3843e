import type { Database } from '@server/db/client';
import { dataEntryAssignments, directoryContacts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { categoryName } from '@shared/categories';
import {
  DATA_ENTRY_MESSAGES,
  type DataEntryAssignment,
  type MyAssignment,
  type UpdateAssignmentInput,
} from '@shared/data-entry';
import { and, eq, gte, sql } from 'drizzle-orm';
import { countryName } from '../reference/reference.service';

/*
 * What a data entry officer is assigned to (set by a super admin on Data Entry Management). The
 * country and category are the officer's defaults on /data-entry; only a strict assignment makes the
 * server refuse records outside them.
 */

type AssignmentRow = typeof dataEntryAssignments.$inferSelect;

const UNASSIGNED: DataEntryAssignment = {
  countryCode: null,
  category: null,
  queue: 'new_records',
  strict: false,
  dailyQuota: null,
  updatedAt: null,
};

export function toAssignmentDto(row: AssignmentRow | undefined | null): DataEntryAssignment {
  if (!row) return UNASSIGNED;
  return {
    countryCode: row.countryCode,
    category: row.category,
    queue: row.queue,
    strict: row.strict,
    dailyQuota: row.dailyQuota,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getAssignmentRows(options: {
  db: Database;
  userIds: string[];
}): Promise<Map<string, AssignmentRow>> {
  if (options.userIds.length === 0) return new Map();
  const rows = await options.db
    .select()
    .from(dataEntryAssignments)
    .where(
      sql`${dataEntryAssignments.userId} IN (${sql.join(
        options.userIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return new Map(rows.map((r) => [r.userId, r]));
}

export async function getAssignment(options: { db: Database; userId: string }): Promise<DataEntryAssignment> {
  const rows = await getAssignmentRows({ db: options.db, userIds: [options.userId] });
  return toAssignmentDto(rows.get(options.userId));
}

/** Records this officer entered since the start of today (UTC). */
export async function countEnteredToday(options: { db: Database; userId: string }): Promise<number> {
  const start = new Date(now());
  start.setUTCHours(0, 0, 0, 0);
  const [row] = await options.db
    .select({ n: sql<number>`count(*)::int` })
    .from(directoryContacts)
    .where(and(eq(directoryContacts.createdBy, options.userId), gte(directoryContacts.createdAt, start)));
  return Number(row?.n ?? 0);
}

export async function getMyAssignment(options: { db: Database; userId: string }): Promise<MyAssignment> {
  const [assignment, enteredToday] = await Promise.all([getAssignment(options), countEnteredToday(options)]);
  return { ...assignment, enteredToday };
}

export async function saveAssignment(options: {
  db: Database;
  userId: string;
  updatedBy: string;
  input: Required<Omit<UpdateAssignmentInput, never>>;
}): Promise<{ before: DataEntryAssignment; after: DataEntryAssignment }> {
  const before = await getAssignment(options);
  const values = {
    countryCode: options.input.countryCode,
    category: options.input.category,
    queue: options.input.queue,
    strict: options.input.strict,
    dailyQuota: options.input.dailyQuota,
    updatedBy: options.updatedBy,
    updatedAt: now(),
  };
  const [row] = await options.db
    .insert(dataEntryAssignments)
    .values({ userId: options.userId, ...values })
    .onConflictDoUpdate({ target: dataEntryAssignments.userId, set: values })
    .returning();
  return { before, after: toAssignmentDto(row) };
}

function describeAssignment(assignment: { countryCode: string | null; category: string | null }): string {
  return [
    assignment.countryCode ? countryName(assignment.countryCode) : null,
    assignment.category ? categoryName(assignment.category) : null,
  ]
    .filter(Boolean)
    .join(' / ');
}

/**
 * A strict assignment holds the officer to its country and category; super admins and officers
 * without a strict assignment may enter any record.
 */
export async function assertWithinAssignment(options: {
  db: Database;
  userId: string;
  role: string;
  record: { countryCode?: string | null; category?: string | null };
}): Promise<void> {
  if (options.role !== 'data_entry') return;
  const assignment = await getAssignment(options);
  if (!assignment.strict) return;
  const country = options.record.countryCode?.toUpperCase();
  const outside =
    (assignment.countryCode !== null && country !== undefined && country !== assignment.countryCode) ||
    (assignment.category !== null &&
      options.record.category !== undefined &&
      options.record.category !== assignment.category);
  if (outside) {
    const message = DATA_ENTRY_MESSAGES.outsideAssignment(describeAssignment(assignment));
    throw new AppError('forbidden', message, { reason: 'outside_assignment' });
  }
}
