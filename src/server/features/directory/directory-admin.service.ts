import type { Database } from '@server/db/client';
import { directoryContacts as t } from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { LEAD_COUNT_EXACT_CAP, type VerificationStatus } from '@shared/contacts';
import type { AdminDirectoryQuery, DirectoryContact } from '@shared/directory';
import { and, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { adminConditions, countDirectoryCapped, isNameOnlyKeyword } from './directory.queries';
import { type DirectoryContactFields, pageAdminDirectory, updateDirectoryContact } from './directory.service';

/*
 * Super admin work on the shared directory. Every change is written to the audit log with the actor.
 * Bulk actions take up to 1,000 ids and answer how many rows changed and how many were skipped.
 */

export async function searchAdminDirectory(options: { db: Database; query: AdminDirectoryQuery }) {
  const { sort, cursor, limit, ...filters } = options.query;
  return pageAdminDirectory({
    db: options.db,
    conditions: adminConditions(filters),
    sort,
    cursor,
    limit,
    keyword: isNameOnlyKeyword(filters),
  });
}

export async function countAdminDirectory(options: {
  db: Database;
  query: Omit<AdminDirectoryQuery, 'sort' | 'limit'>;
}) {
  const { cursor: _cursor, ...filters } = options.query;
  return countDirectoryCapped({
    db: options.db,
    conditions: adminConditions(filters),
    cap: LEAD_COUNT_EXACT_CAP,
  });
}

export async function editDirectoryContactByAdmin(options: {
  db: Database;
  actor: AuditActor;
  id: string;
  fields: DirectoryContactFields;
}): Promise<DirectoryContact> {
  const { before, after } = await updateDirectoryContact({ ...options, includeDeleted: true });
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(options.fields) as (keyof DirectoryContactFields)[]) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (from !== to) changes[key] = { from, to };
  }
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'directory.update',
    targetType: 'directory_contact',
    targetId: options.id,
    details: { email: after.email, changes },
  });
  return after;
}

type BulkResult = { updated: number; skipped: number };

async function audit(options: {
  db: Database;
  actor: AuditActor;
  action: string;
  ids: string[];
  result: BulkResult;
  details?: Record<string, unknown>;
}): Promise<BulkResult> {
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: options.action,
    targetType: 'directory_contact',
    targetId: options.ids.length === 1 ? options.ids[0]! : null,
    details: { ...options.details, ids: options.ids, ...options.result },
  });
  return options.result;
}

export async function bulkVerifyDirectoryContacts(options: {
  db: Database;
  actor: AuditActor;
  ids: string[];
  status: VerificationStatus;
  reason?: string | null;
}): Promise<BulkResult> {
  const at = now();
  const set =
    options.status === 'unverified'
      ? { verificationStatus: options.status, verifiedAt: null, verifiedBy: null, invalidReason: null }
      : {
          verificationStatus: options.status,
          verifiedAt: at,
          verifiedBy: options.actor.id,
          invalidReason: options.status === 'invalid' ? (options.reason ?? null) : null,
        };
  const rows = await options.db
    .update(t)
    .set({ ...set, updatedAt: at })
    .where(
      and(
        inArray(t.id, options.ids),
        isNull(t.deletedAt),
        // Sample data is never verified; such rows are skipped (and counted as skipped).
        ...(options.status === 'verified' ? [eq(t.synthetic, false)] : []),
      ),
    )
    .returning({ id: t.id });
  return audit({
    ...options,
    action: 'directory.bulk_verify',
    result: { updated: rows.length, skipped: options.ids.length - rows.length },
    details: { status: options.status, reason: options.reason ?? null },
  });
}

export async function bulkRecategorizeDirectoryContacts(options: {
  db: Database;
  actor: AuditActor;
  ids: string[];
  category: string;
}): Promise<BulkResult> {
  const rows = await options.db
    .update(t)
    .set({ category: options.category, updatedAt: now() })
    .where(and(inArray(t.id, options.ids), isNull(t.deletedAt)))
    .returning({ id: t.id });
  return audit({
    ...options,
    action: 'directory.bulk_recategorize',
    result: { updated: rows.length, skipped: options.ids.length - rows.length },
    details: { category: options.category },
  });
}

export async function bulkDeleteDirectoryContacts(options: {
  db: Database;
  actor: AuditActor;
  ids: string[];
}): Promise<BulkResult> {
  const at = now();
  const rows = await options.db
    .update(t)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(inArray(t.id, options.ids), isNull(t.deletedAt)))
    .returning({ id: t.id });
  return audit({
    ...options,
    action: 'directory.bulk_delete',
    result: { updated: rows.length, skipped: options.ids.length - rows.length },
  });
}

/**
 * Brings soft-deleted contacts back, unless a live contact now has the same address (the directory
 * holds each address once); of several deleted copies of one address only the latest comes back.
 */
export async function bulkRestoreDirectoryContacts(options: {
  db: Database;
  actor: AuditActor;
  ids: string[];
}): Promise<BulkResult> {
  const ids = sql.join(
    options.ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await options.db
    .update(t)
    .set({ deletedAt: null, updatedAt: now() })
    .where(
      and(
        isNotNull(t.deletedAt),
        sql`${t.id} IN (
          SELECT DISTINCT ON (lower(d.email)) d.id FROM ${t} d
          WHERE d.id IN (${ids}) AND d.deleted_at IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM ${t} l WHERE lower(l.email) = lower(d.email) AND l.deleted_at IS NULL)
          ORDER BY lower(d.email), d.deleted_at DESC
        )`,
      ),
    )
    .returning({ id: t.id });
  return audit({
    ...options,
    action: 'directory.bulk_restore',
    result: { updated: rows.length, skipped: options.ids.length - rows.length },
  });
}

/** Asks the worker to rebuild the roll-up (POST /api/admin/directory/rebuild-facets). */
export async function requestFacetRebuild(options: { db: Database; actor: AuditActor; queue: Queue }) {
  await options.queue.send('rebuild-directory-facets', {});
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'directory.rebuild_facets',
    targetType: 'directory',
  });
}

/** Recomputes the audience roll-up from the directory (after bulk loads or to repair drift). */
export async function rebuildDirectoryFacets({ db }: { db: Database }): Promise<void> {
  await db.execute(sql`SELECT directory_facets_rebuild()`);
}

/**
 * Deletes one soft-deleted record for good (the admin Recycle Bin's purge); a live record is never
 * touched. Answers whether a row went. The caller audits.
 */
export async function purgeDeletedDirectoryContact(options: { db: Database; id: string }): Promise<boolean> {
  const rows = await options.db
    .delete(t)
    .where(and(eq(t.id, options.id), isNotNull(t.deletedAt)))
    .returning({ id: t.id });
  return rows.length > 0;
}

/** The purge job: records soft-deleted before `cutoff`. Idempotent. */
export async function purgeDirectoryContactsDeletedBefore(options: {
  db: Database;
  cutoff: Date;
}): Promise<number> {
  const rows = await options.db
    .delete(t)
    .where(and(isNotNull(t.deletedAt), lt(t.deletedAt, options.cutoff)))
    .returning({ id: t.id });
  return rows.length;
}
