import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import type { Database } from '@server/db/client';
import { contactLists, imports, users } from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { assertStorableText, toStorableText } from '@server/lib/input-hygiene';
import {
  FINISHED_IMPORT_STATUSES,
  formatBytes,
  IMPORT_MESSAGES,
  type ImportCapacity,
  type ImportInspection,
  type ImportReinspectInput,
  type ImportStartInput,
  type ImportSummary,
  type ImportUploadResult,
  importUploadFieldsSchema,
} from '@shared/imports';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { assertListNotFrozen, createList } from '../lists/lists.service';
import { countRecipients } from '../plans/plan-access.service';
import { getPlanLimits } from '../plans/plan-limits.service';
import { INSPECT_BYTES, type InspectResult, inspectHead } from './csv-inspect';
import { importContactsJob } from './import-contacts.job';
import { validateMapping } from './import-mapping';

/** How long the stale-import purge lets an upload or a run sit (Cost Optimization shows them). */
export { ABANDONED_UPLOAD_MS, STUCK_IMPORT_MS } from './purge-stale-imports.job';
/** The disposable-email list the importer refuses, for the verifier too. */
export { isDisposableDomain } from './row-rules';

type ImportRow = typeof imports.$inferSelect;

export interface ImportActor {
  id: string;
  role: string;
}

export function toImportSummary(row: ImportRow, listName: string | null): ImportSummary {
  const finished = FINISHED_IMPORT_STATUSES.includes(row.status);
  let percent = 0;
  if (row.status === 'completed') percent = 100;
  else if (row.status === 'running' || finished) {
    percent = row.sizeBytes > 0 ? Math.min(99, Math.floor((row.bytesProcessed / row.sizeBytes) * 100)) : 0;
  }
  return {
    id: row.id,
    target: row.target,
    status: row.status,
    fileName: row.fileName,
    sizeBytes: row.sizeBytes,
    listId: row.listId,
    listName: listName ?? row.newListName,
    encoding: row.encoding as ImportSummary['encoding'],
    delimiter: row.delimiter as ImportSummary['delimiter'],
    hasHeader: row.hasHeader,
    totalRows: row.totalRows,
    estimatedRows: row.totalRows ?? Math.max(row.estimatedRows, row.processedRows),
    processedRows: row.processedRows,
    percent,
    importedRows: row.importedRows,
    duplicateRows: row.duplicateRows,
    existingRows: row.existingRows,
    invalidRows: row.invalidRows,
    roleAddressRows: row.roleAddressRows,
    emptyRows: row.emptyRows,
    options: { checkMx: row.options?.checkMx ?? false, maxRows: row.options?.maxRows ?? null },
    errorMessage: row.errorMessage,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function uploadResult(
  row: ImportRow,
  listName: string | null,
  capacity: ImportCapacity | null,
): ImportUploadResult {
  const { encoding, delimiter, columns, previewRows, suggestedMapping, estimatedRows } = row.inspection;
  const hasHeader = row.inspection.hasHeader;
  return {
    importId: row.id,
    import: toImportSummary(row, listName),
    encoding,
    delimiter,
    hasHeader,
    // Inspections stored before the header could sit lower had it on line 1.
    headerLine: row.inspection.headerLine ?? (hasHeader ? 1 : null),
    firstLines: row.inspection.firstLines ?? [],
    emptyRows: row.inspection.emptyRows ?? 0,
    columns,
    previewRows,
    suggestedMapping,
    estimatedRows,
    capacity,
  };
}

/**
 * Room left under the plan's recipient limit, for list imports (null: unlimited, or not a list). Known
 * at the mapping step, so a file bigger than the room is flagged before it runs.
 */
async function capacityFor(db: Database, row: ImportRow): Promise<ImportCapacity | null> {
  if (row.target !== 'list') return null;
  const [owner] = await db.select({ role: users.role }).from(users).where(eq(users.id, row.userId));
  if (owner?.role === 'super_admin') return null;
  const { recipients } = await getPlanLimits({ db, userId: row.userId });
  if (recipients < 0) return null;
  const used = await countRecipients({ db, userId: row.userId });
  return { limit: recipients, used, available: Math.max(0, recipients - used) };
}

async function resultOf(db: Database, row: ImportRow): Promise<ImportUploadResult> {
  return uploadResult(row, await listNameOf(db, row.userId, row.listId), await capacityFor(db, row));
}

/** The list's custom fields, which the suggestion may reuse without passing the list's 20. */
async function customFieldsOf(db: Database, userId: string, listId: string | null | undefined) {
  if (!listId) return [];
  const [list] = await db
    .select({ customFields: contactLists.customFields })
    .from(contactLists)
    .where(and(eq(contactLists.id, listId), eq(contactLists.userId, userId)))
    .limit(1);
  return list?.customFields ?? [];
}

async function readHead(filePath: string): Promise<{ head: Buffer; size: number }> {
  const handle = await open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, INSPECT_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { head: buffer.subarray(0, bytesRead), size };
  } finally {
    await handle.close();
  }
}

function safeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, '_');
}

async function listNameOf(db: Database, userId: string, listId: string | null): Promise<string | null> {
  if (!listId) return null;
  const [list] = await db
    .select({ name: contactLists.name })
    .from(contactLists)
    .where(and(eq(contactLists.id, listId), eq(contactLists.userId, userId)))
    .limit(1);
  return list?.name ?? null;
}

async function assertLiveList(db: Database, userId: string, listId: string): Promise<void> {
  const [list] = await db
    .select({
      id: contactLists.id,
      name: contactLists.name,
      frozenAt: contactLists.frozenAt,
      frozenReason: contactLists.frozenReason,
    })
    .from(contactLists)
    .where(and(eq(contactLists.id, listId), eq(contactLists.userId, userId), isNull(contactLists.deletedAt)))
    .limit(1);
  if (!list) throw notFound('List not found');
  assertListNotFrozen(list);
}

async function assertListNameFree(db: Database, userId: string, name: string): Promise<void> {
  const [list] = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.userId, userId),
        isNull(contactLists.deletedAt),
        eq(sql`lower(${contactLists.name})`, name.toLowerCase()),
      ),
    )
    .limit(1);
  if (list) throw new AppError('conflict', 'You already have a list with this name.');
}

/**
 * POST /api/imports: streams the one file part to DATA_DIR/uploads/<user>/<uuid>.csv (never buffered
 * whole; the size limit stops it), inspects its head and records the import as `uploaded`. A file that
 * cannot be imported is deleted and nothing is recorded.
 */
export async function uploadImport(options: {
  db: Database;
  dataDir: string;
  maxBytes: number;
  actor: ImportActor;
  parts: AsyncIterableIterator<Multipart>;
}): Promise<ImportUploadResult> {
  const { db, actor } = options;
  const id = randomUUID();
  const dir = path.resolve(options.dataDir, 'uploads', safeSegment(actor.id));
  const filePath = path.join(dir, `${id}.csv`);
  const fields: Record<string, string> = {};
  let fileName: string | null = null;
  try {
    for await (const part of options.parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (fileName !== null) {
        part.file.resume();
        continue;
      }
      // Check what the fields sent so far allow before storing anything.
      checkFields(fields, actor, false);
      fileName = toStorableText(part.filename || 'upload.csv').slice(0, 255);
      await mkdir(dir, { recursive: true });
      await pipeline(part.file, createWriteStream(filePath));
      if (part.file.truncated) throw tooLarge(options.maxBytes);
    }
    if (fileName === null) throw new AppError('bad_request', IMPORT_MESSAGES.noFile);
    const input = checkFields(fields, actor, true);
    if (input.listId) await assertLiveList(db, actor.id, input.listId);
    if (input.newListName) await assertListNameFree(db, actor.id, input.newListName);

    const { head, size } = await readHead(filePath);
    const inspection = inspectHead({
      head,
      complete: size <= head.length,
      fileSize: size,
      target: input.target,
      existingCustomFields: await customFieldsOf(db, actor.id, input.listId),
    });
    const [row] = await db
      .insert(imports)
      .values({
        id,
        userId: actor.id,
        target: input.target,
        listId: input.target === 'list' ? (input.listId ?? null) : null,
        newListName: input.target === 'list' && !input.listId ? (input.newListName ?? null) : null,
        fileName,
        filePath,
        sizeBytes: size,
        ...inspectionColumns(inspection),
        createdAt: now(),
        updatedAt: now(),
      })
      .returning();
    return resultOf(db, row!);
  } catch (error) {
    await unlink(filePath).catch(() => {});
    throw uploadError(error, options.maxBytes);
  }
}

/** What went wrong while reading the multipart body, in the user's words; our own faults stay 500s. */
function uploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return new AppError('bad_request', IMPORT_MESSAGES.oneFile);
  // Disk and other system errors (ENOSPC, EACCES …) are ours.
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return error;
  return new AppError('bad_request', IMPORT_MESSAGES.unreadableUpload);
}

function inspectionColumns(inspection: InspectResult) {
  const { lineBreak, ...stored } = inspection;
  return {
    encoding: inspection.encoding,
    delimiter: inspection.delimiter,
    lineBreak,
    hasHeader: inspection.hasHeader,
    inspection: stored satisfies ImportInspection,
    estimatedRows: inspection.estimatedRows,
  };
}

function tooLarge(maxBytes: number) {
  return new AppError('payload_too_large', IMPORT_MESSAGES.tooLarge(formatBytes(maxBytes)));
}

function checkFields(fields: Record<string, string>, actor: ImportActor, complete: boolean) {
  assertStorableText(fields, 'fields');
  const parsed = importUploadFieldsSchema.safeParse({
    target: fields.target || undefined,
    listId: fields.listId || undefined,
    newListName: fields.newListName?.trim() || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === 'listId') throw notFound('List not found');
    throw new AppError(
      'bad_request',
      issue?.path[0] === 'target' ? IMPORT_MESSAGES.badTarget : (issue?.message ?? IMPORT_MESSAGES.badTarget),
    );
  }
  const input = parsed.data;
  if (input.target === 'directory' && actor.role !== 'super_admin') {
    throw new AppError('forbidden', IMPORT_MESSAGES.directoryForbidden);
  }
  if (complete && input.target === 'list' && !input.listId && !input.newListName) {
    throw new AppError('bad_request', IMPORT_MESSAGES.listRequired);
  }
  return input;
}

export async function getImportRow(db: Database, userId: string, id: string): Promise<ImportRow> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.id, id), eq(imports.userId, userId)))
    .limit(1);
  if (!row) throw notFound(IMPORT_MESSAGES.notFound);
  return row;
}

export async function getImportById(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<ImportSummary> {
  const row = await getImportRow(options.db, options.userId, options.id);
  return toImportSummary(row, await listNameOf(options.db, options.userId, row.listId));
}

export async function getImportPreview(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<ImportUploadResult> {
  const row = await getImportRow(options.db, options.userId, options.id);
  return resultOf(options.db, row);
}

export async function listImports(options: { db: Database; userId: string }): Promise<ImportSummary[]> {
  const rows = await options.db
    .select({ row: imports, listName: contactLists.name })
    .from(imports)
    .leftJoin(contactLists, eq(contactLists.id, imports.listId))
    .where(eq(imports.userId, options.userId))
    .orderBy(desc(imports.createdAt))
    .limit(50);
  return rows.map(({ row, listName }) => toImportSummary(row, listName));
}

/** POST /api/imports/:id/inspect: the head again, with the user's choice of encoding or delimiter. */
export async function reinspectImport(options: {
  db: Database;
  userId: string;
  id: string;
  input: ImportReinspectInput;
}): Promise<ImportUploadResult> {
  const row = await getImportRow(options.db, options.userId, options.id);
  if (row.status !== 'uploaded') throw new AppError('conflict', IMPORT_MESSAGES.notStartable);
  const { head, size } = await readHead(row.filePath).catch(() => {
    throw new AppError('bad_request', IMPORT_MESSAGES.fileGone);
  });
  const inspection = inspectHead({
    head,
    complete: size <= head.length,
    fileSize: size,
    target: row.target,
    overrides: options.input,
    existingCustomFields: await customFieldsOf(options.db, options.userId, row.listId),
  });
  const [updated] = await options.db
    .update(imports)
    .set({ ...inspectionColumns(inspection), updatedAt: now() })
    .where(and(eq(imports.id, row.id), eq(imports.userId, options.userId)))
    .returning();
  return resultOf(options.db, updated!);
}

/** POST /api/imports/:id/start: checks the mapping, makes the new list if asked, queues the job. */
export async function startImport(options: {
  db: Database;
  queue: Queue;
  userId: string;
  id: string;
  input: ImportStartInput;
}): Promise<ImportSummary> {
  const { db, userId, input } = options;
  const row = await getImportRow(db, userId, options.id);
  if (row.status !== 'uploaded') throw new AppError('conflict', IMPORT_MESSAGES.notStartable);
  let existingCustomFields: string[] = [];
  if (row.listId) {
    const [list] = await db
      .select({
        customFields: contactLists.customFields,
        name: contactLists.name,
        frozenAt: contactLists.frozenAt,
        frozenReason: contactLists.frozenReason,
      })
      .from(contactLists)
      .where(
        and(eq(contactLists.id, row.listId), eq(contactLists.userId, userId), isNull(contactLists.deletedAt)),
      )
      .limit(1);
    if (!list) throw notFound('List not found');
    assertListNotFrozen(list);
    existingCustomFields = list.customFields ?? [];
  } else if (row.target === 'list' && !row.newListName) {
    throw new AppError('bad_request', IMPORT_MESSAGES.listRequired);
  }
  validateMapping({
    mapping: input.mapping,
    columnCount: row.inspection.columns.length,
    target: row.target,
    existingCustomFields,
  });
  const listId =
    row.listId ??
    (row.target === 'list' ? (await createList({ db, userId, name: row.newListName! })).id : null);
  const [queued] = await db
    .update(imports)
    .set({
      status: 'queued',
      listId,
      mapping: input.mapping,
      hasHeader: input.hasHeader,
      options: { checkMx: input.options?.checkMx ?? false, maxRows: input.options?.maxRows ?? null },
      updatedAt: now(),
    })
    .where(and(eq(imports.id, row.id), eq(imports.userId, userId), eq(imports.status, 'uploaded')))
    .returning();
  if (!queued) {
    // Started or cancelled meanwhile: the list just made for this attempt goes again.
    if (!row.listId && listId) {
      await db
        .delete(contactLists)
        .where(
          and(eq(contactLists.id, listId), eq(contactLists.userId, userId), eq(contactLists.contactCount, 0)),
        );
    }
    throw new AppError('conflict', IMPORT_MESSAGES.notStartable);
  }
  await options.queue.send(importContactsJob.name, { importId: row.id }, importContactsJob.sendOptions);
  return toImportSummary(queued, await listNameOf(db, userId, listId));
}

/**
 * POST /api/imports/:id/cancel. Not yet running: cancelled at once. Running: the job sees it at its next
 * batch, throws its staged rows away and leaves the list as it was.
 */
export async function cancelImport(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<ImportSummary> {
  const { db, userId } = options;
  const row = await getImportRow(db, userId, options.id);
  const at = now();
  const [cancelled] = await db
    .update(imports)
    .set({
      status: 'cancelled',
      finishedAt: sql`CASE WHEN ${imports.status} = 'running' THEN NULL ELSE ${at.toISOString()}::timestamptz END`,
      updatedAt: at,
    })
    .where(
      and(
        eq(imports.id, row.id),
        eq(imports.userId, userId),
        inArray(imports.status, ['uploaded', 'queued', 'running']),
      ),
    )
    .returning();
  if (!cancelled) throw new AppError('conflict', IMPORT_MESSAGES.notCancellable);
  if (row.status !== 'running') {
    // No job holds the file; a queued job that starts later finds the import cancelled and stops.
    await unlink(row.filePath).catch(() => {});
    // A list made for this import did not exist before it, so it goes again while still empty
    // (a running import's job does the same when it stops).
    if (row.newListName && cancelled.listId) {
      await db
        .delete(contactLists)
        .where(
          and(
            eq(contactLists.id, cancelled.listId),
            eq(contactLists.userId, userId),
            eq(contactLists.contactCount, 0),
          ),
        );
      return toImportSummary({ ...cancelled, listId: null }, null);
    }
  }
  return toImportSummary(cancelled, await listNameOf(db, userId, cancelled.listId));
}
