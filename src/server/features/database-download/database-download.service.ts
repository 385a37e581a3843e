import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { Database } from '@server/db/client';
import { databaseDownloads, users } from '@server/db/schema/index';
import { now, startOfNextUtcMonth, startOfUtcMonth } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { rowsOf } from '@server/lib/list-cursor';
import {
  DATABASE_DOWNLOAD_MESSAGES,
  type DatabaseDownloadRequest,
  type DatabaseDownloadSummary,
  DOWNLOAD_COLUMNS,
  databaseDownloadRequestSchema,
} from '@shared/database-download';
import { escapeCsvFormula } from '@shared/imports';
import { stringify } from 'csv-stringify';
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { assertOwnLists } from '../lists/lists.service';
import { assertWithinLimit, getPlanLimits } from '../plans/plan-limits.service';

/*
 * /database-download: a subscriber takes the directory records they added to their lists as a file, with
 * each record's source and verification evidence. The plan sets a monthly allowance in rows; every
 * download is recorded (database_downloads, which the allowance counts) and audited.
 */

const HISTORY_SHOWN = 20;
const BATCH = 2_000;

/** The directory records in the user's live lists (only the chosen ones when `listIds` is not empty). */
function selectionFilter(userId: string, listIds: readonly string[]) {
  return sql`lc.user_id = ${userId}
    AND lc.directory_contact_id IS NOT NULL
    ${
      listIds.length > 0
        ? sql`AND lc.list_id IN (${sql.join(
            listIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`
        : sql``
    }`;
}

const SELECTION_FROM = sql`list_contacts lc
  JOIN contact_lists l ON l.id = lc.list_id AND l.deleted_at IS NULL
  JOIN directory_contacts d ON d.id = lc.directory_contact_id AND d.deleted_at IS NULL`;

async function countSelection(db: Database, userId: string, listIds: readonly string[]): Promise<number> {
  const result = await db.execute(sql`
    SELECT count(DISTINCT d.id)::int AS n FROM ${SELECTION_FROM} WHERE ${selectionFilter(userId, listIds)}`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

async function usedThisMonth(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${databaseDownloads.rowCount}), 0)::int` })
    .from(databaseDownloads)
    .where(
      and(eq(databaseDownloads.userId, userId), gte(databaseDownloads.createdAt, startOfUtcMonth(now()))),
    );
  return Number(row?.used ?? 0);
}

/** GET /api/database-download: the allowance, the lists with their directory records, past downloads. */
export async function getDownloadSummary(options: {
  db: Database;
  userId: string;
}): Promise<DatabaseDownloadSummary> {
  const { db, userId } = options;
  const [limits, used, listResult, history] = await Promise.all([
    getPlanLimits({ db, userId }),
    usedThisMonth(db, userId),
    db.execute(sql`
      SELECT l.id, l.name,
        (SELECT count(DISTINCT lc.directory_contact_id)::int
           FROM list_contacts lc
           JOIN directory_contacts d ON d.id = lc.directory_contact_id AND d.deleted_at IS NULL
          WHERE lc.user_id = ${userId} AND lc.list_id = l.id) AS n
      FROM contact_lists l
      WHERE l.user_id = ${userId} AND l.deleted_at IS NULL
      ORDER BY lower(l.name), l.id`),
    db
      .select()
      .from(databaseDownloads)
      .where(eq(databaseDownloads.userId, userId))
      .orderBy(desc(databaseDownloads.createdAt), desc(databaseDownloads.id))
      .limit(HISTORY_SHOWN),
  ]);
  const lists = rowsOf<{ id: string; name: string; n: number }>(listResult);
  const names = new Map(lists.map((l) => [l.id, l.name]));
  const limit = limits.downloads;
  return {
    allowance: {
      limit,
      usedThisMonth: used,
      remaining: limit < 0 ? null : Math.max(0, limit - used),
      renewsAt: startOfNextUtcMonth(now()).toISOString(),
      planName: limits.planName,
    },
    lists: lists.map((l) => ({ id: l.id, name: l.name, directoryContacts: Number(l.n) })),
    history: history.map((h) => ({
      id: h.id,
      createdAt: h.createdAt.toISOString(),
      rowCount: h.rowCount,
      fileName: h.fileName,
      lists: h.listIds.flatMap((id) => names.get(id) ?? []),
    })),
  };
}

function downloadFileName(at: Date): string {
  return `tambari-contacts-${at.toISOString().slice(0, 10)}.csv`;
}

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

interface DownloadRow {
  id: string;
  company_name: string;
  contact_name: string | null;
  job_title: string | null;
  email: string;
  phone: string | null;
  website: string | null;
  address: string | null;
  city: string | null;
  country_code: string;
  category: string;
  source: string;
  source_url: string | null;
  created_at: string | Date;
  verification_status: string;
  verified_at: string | Date | null;
  synthetic: boolean;
}

const iso = (value: string | Date | null) => (value == null ? '' : new Date(value).toISOString());

function toRecord(row: DownloadRow): string[] {
  const cells: Record<(typeof DOWNLOAD_COLUMNS)[number], string | null> = {
    company: row.company_name,
    contact_name: row.contact_name,
    job_title: row.job_title,
    email: row.email,
    phone: row.phone,
    website: row.website,
    address: row.address,
    city: row.city,
    country: COUNTRY_NAMES.of(row.country_code) ?? row.country_code,
    category: row.category,
    source: row.source,
    source_url: row.source_url,
    added_to_database: iso(row.created_at),
    verification_status: row.verification_status,
    verified_at: iso(row.verified_at),
    sample_data: row.synthetic ? 'yes' : 'no',
  };
  return DOWNLOAD_COLUMNS.map((column) => escapeCsvFormula(cells[column] ?? ''));
}

/**
 * POST /api/database-download. Counts the selection, checks it against the month's allowance and records
 * the download in one transaction (the user row is locked, so two downloads at once cannot both spend the
 * last of it), then streams the file: the first `rowCount` records by id, in batches.
 */
export async function startDownload(options: {
  db: Database;
  userId: string;
  actor: AuditActor;
  input: DatabaseDownloadRequest;
}): Promise<{ fileName: string; rowCount: number; stream: Readable }> {
  const { db, userId } = options;
  const input = databaseDownloadRequestSchema.parse(options.input);
  const listIds = [...new Set(input.listIds)];
  await assertOwnLists({ db, userId, ids: listIds, path: 'listIds' });
  const at = now();
  const fileName = downloadFileName(at);

  const rowCount = await db.transaction(async (tx) => {
    const txDb = tx as unknown as Database;
    await tx.execute(sql`SELECT id FROM ${users} WHERE id = ${userId} FOR UPDATE`);
    const limits = await getPlanLimits({ db: txDb, userId });
    if (limits.downloads === 0) {
      throw new AppError('forbidden', DATABASE_DOWNLOAD_MESSAGES.notIncluded, {
        reason: 'plan_limit',
        limit: 'downloads',
        allowed: 0,
      });
    }
    const available = await countSelection(txDb, userId, listIds);
    if (available === 0) {
      throw new AppError('unprocessable', DATABASE_DOWNLOAD_MESSAGES.nothing, {
        errors: [{ path: 'listIds', message: DATABASE_DOWNLOAD_MESSAGES.nothing }],
      });
    }
    const rows = Math.min(available, input.maxRows ?? available);
    const used = await usedThisMonth(txDb, userId);
    if (limits.downloads > 0 && used >= limits.downloads) {
      throw new AppError('forbidden', DATABASE_DOWNLOAD_MESSAGES.noAllowanceLeft, {
        reason: 'plan_limit',
        limit: 'downloads',
        allowed: limits.downloads,
        remaining: 0,
      });
    }
    await assertWithinLimit({ db: txDb, userId, limit: 'downloads', used, adding: rows });
    await tx.insert(databaseDownloads).values({ userId, rowCount: rows, listIds, fileName, createdAt: at });
    await recordAuditEntry({
      db: txDb,
      actor: options.actor,
      action: 'database.downloaded',
      targetType: 'user',
      targetId: userId,
      details: { rows, lists: listIds.length > 0 ? listIds : 'all' },
    });
    return rows;
  });

  // The BOM makes Excel read the file as UTF-8; every cell is formula-escaped (escapeCsvFormula).
  const csv = stringify({ header: true, columns: [...DOWNLOAD_COLUMNS], bom: true });
  (async () => {
    let lastId: string | null = null;
    let written = 0;
    while (written < rowCount) {
      const result: unknown = await db.execute(sql`
        SELECT DISTINCT ON (d.id) d.id, d.company_name, d.contact_name, d.job_title, d.email, d.phone,
          d.website, d.address, d.city, d.country_code, d.category, d.source, d.source_url, d.created_at,
          d.verification_status, d.verified_at, d.synthetic
        FROM ${SELECTION_FROM}
        WHERE ${selectionFilter(userId, listIds)} ${lastId ? sql`AND d.id > ${lastId}::uuid` : sql``}
        ORDER BY d.id
        LIMIT ${Math.min(BATCH, rowCount - written)}`);
      const batch: DownloadRow[] = rowsOf<DownloadRow>(result);
      if (batch.length === 0) break;
      for (const row of batch) {
        if (!csv.write(toRecord(row))) await Promise.race([once(csv, 'drain'), once(csv, 'close')]);
        // The client went away: stop reading.
        if (csv.destroyed) return;
      }
      written += batch.length;
      lastId = batch.at(-1)!.id;
    }
    csv.end();
  })().catch((error: unknown) => csv.destroy(error as Error));

  return { fileName, rowCount, stream: csv };
}
