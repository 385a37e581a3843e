import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { AppError, notFound } from '@server/lib/errors';
import { iso, rowsOf } from '@server/lib/list-cursor';
import {
  DATA_ENTRY_MESSAGES,
  type OfficerList,
  type OfficerQuality,
  type ReviewInput,
  type ReviewSample,
  THROUGHPUT_DAYS,
  type UpdateAssignmentInput,
} from '@shared/data-entry';
import { sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import {
  getAssignmentRows,
  saveAssignment,
  toAssignmentDto,
} from '../directory/data-entry-assignments.service';
import { verifyDirectoryContact } from '../directory/directory.service';

/*
 * Data Entry Management: each officer's assignment and quota, what they entered per day over the last
 * 14 days (directory_contacts.created_by, read through its (created_by, created_at) index), and their
 * quality: of the records a super admin reviewed a second time (a random sample the admin opens), the
 * share found correct, corrected or invalid.
 */

const DAY_MS = 86_400_000;

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function quality(counts: { correct: number; corrected: number; invalid: number }): OfficerQuality {
  const reviewed = counts.correct + counts.corrected + counts.invalid;
  return { reviewed, ...counts, accuracy: reviewed > 0 ? counts.correct / reviewed : null };
}

async function officer(db: Database, id: string) {
  const rows = rowsOf<{ id: string; email: string; role: string }>(
    await db.execute(sql`SELECT id, email, role FROM "user" WHERE id = ${id}`),
  );
  const row = rows[0];
  if (!row) throw notFound('User not found');
  if (row.role !== 'data_entry') throw new AppError('bad_request', DATA_ENTRY_MESSAGES.notAnOfficer);
  return row;
}

/** Officers by email, a page at a time, with their assignment, throughput and quality. */
export async function listOfficers(options: {
  db: Database;
  cursor?: string;
  limit: number;
}): Promise<OfficerList> {
  const { db } = options;
  const after = decodeCursor('officers', options.cursor, 2);
  const rows = rowsOf<{ id: string; email: string; name: string; banned: boolean | null }>(
    await db.execute(sql`
      SELECT id, email, name, banned FROM "user"
      WHERE role = 'data_entry'
        ${after ? sql`AND (lower(email), id) > (${String(after[0])}, ${String(after[1])})` : sql``}
      ORDER BY lower(email), id
      LIMIT ${options.limit + 1}`),
  );
  const page = rows.slice(0, options.limit);
  const ids = page.map((r) => r.id);
  const today = utcDay(now());
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - (THROUGHPUT_DAYS - 1) * DAY_MS);
  const days = Array.from({ length: THROUGHPUT_DAYS }, (_, i) =>
    utcDay(new Date(first.getTime() + i * DAY_MS)),
  );

  const entered = new Map<string, Map<string, number>>();
  const checked = new Map<string, Map<string, number>>();
  const totals = new Map<string, number>();
  const reviews = new Map<string, { correct: number; corrected: number; invalid: number }>();
  if (ids.length > 0) {
    const idList = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    const since = first.toISOString();
    const [enteredRows, checkedRows, totalRows, reviewRows] = await Promise.all([
      db.execute(sql`
        SELECT created_by AS id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
        FROM directory_contacts
        WHERE created_by IN (${idList}) AND created_at >= ${since}::timestamptz
        GROUP BY 1, 2`),
      db.execute(sql`
        SELECT verified_by AS id, to_char(verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
        FROM directory_contacts
        WHERE verified_by IN (${idList}) AND verified_at >= ${since}::timestamptz
        GROUP BY 1, 2`),
      db.execute(sql`
        SELECT created_by AS id, count(*)::int AS n FROM directory_contacts
        WHERE created_by IN (${idList}) GROUP BY 1`),
      db.execute(sql`
        SELECT officer_id AS id, outcome, count(*)::int AS n FROM data_entry_reviews
        WHERE officer_id IN (${idList}) GROUP BY 1, 2`),
    ]);
    const put = (target: Map<string, Map<string, number>>, id: string, day: string, n: number) => {
      const byDay = target.get(id) ?? new Map<string, number>();
      byDay.set(day, n);
      target.set(id, byDay);
    };
    for (const r of rowsOf<{ id: string; day: string; n: number }>(enteredRows))
      put(entered, r.id, r.day, Number(r.n));
    for (const r of rowsOf<{ id: string; day: string; n: number }>(checkedRows))
      put(checked, r.id, r.day, Number(r.n));
    for (const r of rowsOf<{ id: string; n: number }>(totalRows)) totals.set(r.id, Number(r.n));
    for (const r of rowsOf<{ id: string; outcome: 'correct' | 'corrected' | 'invalid'; n: number }>(
      reviewRows,
    )) {
      const q = reviews.get(r.id) ?? { correct: 0, corrected: 0, invalid: 0 };
      q[r.outcome] = Number(r.n);
      reviews.set(r.id, q);
    }
  }
  const assignments = await getAssignmentRows({ db, userIds: ids });
  const officers = page.map((row) => {
    const daily = days.map((date) => ({
      date,
      entered: entered.get(row.id)?.get(date) ?? 0,
      checked: checked.get(row.id)?.get(date) ?? 0,
    }));
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      suspended: row.banned === true,
      assignment: toAssignmentDto(assignments.get(row.id)),
      daily,
      enteredToday: daily.at(-1)?.entered ?? 0,
      entered14d: daily.reduce((sum, d) => sum + d.entered, 0),
      totalEntered: totals.get(row.id) ?? 0,
      quality: quality(reviews.get(row.id) ?? { correct: 0, corrected: 0, invalid: 0 }),
    };
  });
  const last = page.at(-1);
  return {
    generatedAt: now().toISOString(),
    officers,
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor('officers', [last.email.toLowerCase(), last.id])
        : null,
  };
}

export async function updateOfficerAssignment(options: {
  db: Database;
  actor: AuditActor;
  officerId: string;
  input: UpdateAssignmentInput;
}) {
  const target = await officer(options.db, options.officerId);
  const { before, after } = await saveAssignment({
    db: options.db,
    userId: target.id,
    updatedBy: options.actor.id,
    input: options.input as Required<UpdateAssignmentInput>,
  });
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of ['countryCode', 'category', 'queue', 'strict', 'dailyQuota'] as const) {
    if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] };
  }
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'data_entry.assignment_updated',
    targetType: 'user',
    targetId: target.id,
    details: { targetEmail: target.email, changes },
  });
  return after;
}

/**
 * A random sample of the officer's live records nobody has reviewed yet. The officer's rows are read
 * through (created_by, created_at); the random order is over their records only.
 */
export async function sampleOfficerRecords(options: {
  db: Database;
  officerId: string;
  size: number;
}): Promise<ReviewSample> {
  const { db } = options;
  const target = await officer(db, options.officerId);
  const unreviewed = `NOT EXISTS (SELECT 1 FROM data_entry_reviews r WHERE r.directory_contact_id = d.id)`;
  const [records, count] = await Promise.all([
    db.execute(sql`
      SELECT id, company_name, contact_name, email, phone, website, city, country_code, category,
        verification_status, created_at
      FROM directory_contacts d
      WHERE created_by = ${target.id} AND deleted_at IS NULL AND ${sql.raw(unreviewed)}
      ORDER BY random() LIMIT ${options.size}`),
    db.execute(sql`
      SELECT count(*)::int AS n FROM directory_contacts d
      WHERE created_by = ${target.id} AND deleted_at IS NULL AND ${sql.raw(unreviewed)}`),
  ]);
  type Row = {
    id: string;
    company_name: string;
    contact_name: string | null;
    email: string;
    phone: string | null;
    website: string | null;
    city: string | null;
    country_code: string;
    category: string;
    verification_status: string;
    created_at: string;
  };
  return {
    officerId: target.id,
    unreviewed: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0),
    records: rowsOf<Row>(records).map((r) => ({
      id: r.id,
      companyName: r.company_name,
      contactName: r.contact_name,
      email: r.email,
      phone: r.phone,
      website: r.website,
      city: r.city,
      countryCode: r.country_code,
      category: r.category,
      verificationStatus: r.verification_status,
      createdAt: iso(r.created_at)!,
    })),
  };
}

/**
 * Records the second review of one of the officer's records. "Invalid" also marks the record invalid
 * in the directory (with the note as its reason), so subscribers stop seeing it. Audited.
 */
export async function reviewOfficerRecord(options: {
  db: Database;
  actor: AuditActor;
  officerId: string;
  input: Required<Pick<ReviewInput, 'contactId' | 'outcome'>> & { note: string | null };
}): Promise<OfficerQuality> {
  const { db, input } = options;
  const target = await officer(db, options.officerId);
  const owned = rowsOf<{ id: string }>(
    await db.execute(sql`
      SELECT id FROM directory_contacts WHERE id = ${input.contactId}::uuid AND created_by = ${target.id}`),
  );
  if (owned.length === 0) throw new AppError('not_found', DATA_ENTRY_MESSAGES.notOfficersRecord);
  await db.execute(sql`
    INSERT INTO data_entry_reviews (directory_contact_id, officer_id, reviewer_id, outcome, note, created_at)
    VALUES (${input.contactId}::uuid, ${target.id}, ${options.actor.id}, ${input.outcome}, ${input.note}, ${now().toISOString()}::timestamptz)
    ON CONFLICT (directory_contact_id) DO UPDATE
      SET outcome = excluded.outcome, note = excluded.note, reviewer_id = excluded.reviewer_id,
        created_at = excluded.created_at`);
  if (input.outcome === 'invalid') {
    await verifyDirectoryContact({
      db,
      actorId: options.actor.id,
      id: input.contactId,
      status: 'invalid',
      reason: `Second review: ${input.note}`,
    });
  }
  await recordAuditEntry({
    db,
    actor: options.actor,
    action: 'data_entry.record_reviewed',
    targetType: 'directory_contact',
    targetId: input.contactId,
    details: { officerId: target.id, targetEmail: target.email, outcome: input.outcome, note: input.note },
  });
  const counts = rowsOf<{ outcome: 'correct' | 'corrected' | 'invalid'; n: number }>(
    await db.execute(sql`
      SELECT outcome, count(*)::int AS n FROM data_entry_reviews WHERE officer_id = ${target.id} GROUP BY 1`),
  );
  const q = { correct: 0, corrected: 0, invalid: 0 };
  for (const r of counts) q[r.outcome] = Number(r.n);
  return quality(q);
}
