import { createReadStream } from 'node:fs';
import { access, unlink } from 'node:fs/promises';
import type { DatabaseHandle } from '@server/db/client';
import { imports } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { toWellFormedText } from '@server/lib/input-hygiene';
import { IMPORT_MESSAGES } from '@shared/imports';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import iconv from 'iconv-lite';
import { type ParsedRecord, parseRecords, RecordSplitter, type SplitRecord } from './csv-records';
import {
  BatchBuilder,
  ExistingChecker,
  ImportCancelled,
  type ImportCounters,
  writeBatch,
  ZERO_COUNTERS,
} from './import-batch';
import { EagerListMove } from './import-eager-move';
import { finishImport, ImportRefused } from './import-finish';
import { type ImportSession, openImportSession } from './import-session';
import { createStaging, dropStaging, stagingTable, type TargetRef } from './import-staging';
import { RowProcessor } from './row-processor';
import { MxChecker } from './row-rules';

export const IMPORT_BATCH_SIZE = 5000;

export type ImportRunOutcome =
  | 'completed'
  | 'failed'
  | 'cancelled'
  /** Stopped between batches by `signal` (worker shutting down): progress kept, a rerun resumes. */
  | 'interrupted'
  | 'already-finished'
  | 'not-started'
  | 'busy'
  | 'missing';

export interface ImportRunOptions {
  database: DatabaseHandle;
  importId: string;
  log?: FastifyBaseLogger;
  batchSize?: number;
  mx?: MxChecker;
  /** Aborted: stop after the batch in hand, keeping the progress for a rerun. */
  signal?: AbortSignal;
  /** Called after each saved batch (progress output, tests). */
  onBatch?: (progress: { processedRows: number; stagedRows: number }) => Promise<void> | void;
}

type ImportRow = typeof imports.$inferSelect;

type Counters = ImportCounters;

class ImportInterrupted extends Error {}

/** The eager move stopped partway; its rows were not staged (see run). */
class EagerMoveLost extends Error {}

/** Imports on PGlite (one process): which are running here, since advisory locks need a second session. */
const runningHere = new Set<string>();

/**
 * Imports one uploaded CSV (DESIGN rule 7: safe to run twice). Reads the file as a stream in batches,
 * applies the row rules, writes each batch to the import's staging table together with its rejected
 * rows and its progress (one transaction per batch, so a rerun resumes after the last saved batch),
 * then moves the staged rows into the target in ONE transaction: until then the list is untouched, and
 * a failed or cancelled import leaves it exactly as it was. A finished import is a no-op.
 */
export async function importContacts(input: ImportRunOptions): Promise<ImportRunOutcome> {
  const { database, importId } = input;
  const [row] = await database.db.select().from(imports).where(eq(imports.id, importId)).limit(1);
  if (!row) return 'missing';
  if (row.status === 'uploaded') return 'not-started';
  const session = await openImportSession(database);
  try {
    if (row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled') {
      await cleanUp(session, row);
      return 'already-finished';
    }
    if (!(await acquire(session, importId))) return 'busy';
    try {
      return await run(session, row, input);
    } finally {
      await releaseLock(session, importId);
    }
  } finally {
    await session.release();
  }
}

async function acquire(session: ImportSession, importId: string): Promise<boolean> {
  if (session.kind === 'pglite') {
    if (runningHere.has(importId)) return false;
    runningHere.add(importId);
    return true;
  }
  const { rows } = await session.query<{ ok: boolean }>(
    'SELECT pg_try_advisory_lock(hashtextextended($1, 7262)) AS ok',
    [`import:${importId}`],
  );
  return rows[0]?.ok === true;
}

async function releaseLock(session: ImportSession, importId: string): Promise<void> {
  if (session.kind === 'pglite') {
    runningHere.delete(importId);
    return;
  }
  await session
    .query('SELECT pg_advisory_unlock(hashtextextended($1, 7262))', [`import:${importId}`])
    .catch(() => {});
}

async function run(
  session: ImportSession,
  initial: ImportRow,
  input: ImportRunOptions,
): Promise<ImportRunOutcome> {
  const { log, database } = input;
  const table = stagingTable(initial.id);
  const started = await session.query<{ id: string }>(
    `UPDATE imports SET status = 'running', started_at = coalesce(started_at, $2), updated_at = $2
     WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
    [initial.id, now()],
  );
  if (started.rowCount === 0) {
    // Cancelled (or finished) between the read above and now.
    const [current] = await session
      .query<{ status: string }>('SELECT status FROM imports WHERE id = $1', [initial.id])
      .then((r) => r.rows);
    if (current?.status === 'cancelled') await discard(session, initial);
    return 'already-finished';
  }
  let counters: Counters = { ...ZERO_COUNTERS };
  let eager: EagerListMove | null = null;
  try {
    await createStaging(session, table);
    counters = await resumePoint(session, initial, table);
    await access(initial.filePath).catch(() => {
      throw new ImportRefused(IMPORT_MESSAGES.fileGone);
    });
    // A fresh list import on PostgreSQL moves its rows while the file is read (import-eager-move.ts).
    // Opened before the list's addresses are read, so nobody can add one in between.
    if (counters.processed === 0 && initial.target === 'list') {
      eager = await EagerListMove.open({ database, userId: initial.userId, listId: initial.listId, log });
    }
    try {
      await readFile(session, initial, table, counters, input, eager);
    } catch (error) {
      if (!(error instanceof EagerMoveLost)) throw error;
      // The eager move gave up (an address someone else added, a lost connection). Its rows were never
      // staged, so the file is read again the usual way: staged, then moved at the end.
      log?.info({ importId: initial.id }, 'eager import move lost; reading the file again');
      // Its connection is gone before the final move asks for the lock it held.
      await eager?.abandon();
      eager = null;
      counters = await startOver(session, initial, table);
      await readFile(session, initial, table, counters, input, null);
    }
    const moveStarted = performance.now();
    const outcome = await finishImport({ database, session, row: initial, table, counters, eager });
    log?.debug?.({ importId: initial.id, ms: Math.round(performance.now() - moveStarted) }, 'final move');
    if (outcome === 'cancelled') {
      await discard(session, initial);
      return 'cancelled';
    }
    await cleanUp(session, initial);
    log?.info({ importId: initial.id, rows: counters.processed }, 'import completed');
    return 'completed';
  } catch (error) {
    // Before anything else touches the list: the eager move holds its lock until rolled back.
    await eager?.abandon();
    if (error instanceof ImportInterrupted || isTransient(error)) {
      // Progress and staged rows stay: the job's retry resumes from the last batch written.
      log?.warn?.(
        { err: error, importId: initial.id, rows: counters.processed },
        'import interrupted; a rerun resumes it',
      );
      return 'interrupted';
    }
    if (error instanceof ImportCancelled) {
      await discard(session, initial);
      log?.info({ importId: initial.id }, 'import cancelled');
      return 'cancelled';
    }
    const message =
      error instanceof ImportRefused
        ? error.message
        : 'The import failed because of an error on our side. Your list was not changed; please try again.';
    if (!(error instanceof ImportRefused)) log?.error({ err: error, importId: initial.id }, 'import failed');
    await session
      .query(
        `UPDATE imports SET status = 'failed', error_message = $2, finished_at = $3, updated_at = $3
         WHERE id = $1 AND status = 'running'`,
        [initial.id, message, now()],
      )
      .catch((e: unknown) =>
        log?.error({ err: e, importId: initial.id }, 'could not mark the import failed'),
      );
    await dropUnfilledNewList(session, initial).catch(() => {});
    await cleanUp(session, initial).catch(() => {});
    return 'failed';
  }
}

/** Lost connections, server restarts, deadlocks: worth a retry, which resumes. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return (
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', '40001', '40P01', '53300'].includes(code) ||
    ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code)
  );
}

/**
 * Counters to continue from. A staging table without the rows the progress counts means starting over:
 * a server crash emptied it, or the rows went to an eager move that was rolled back.
 */
async function resumePoint(session: ImportSession, row: ImportRow, table: string): Promise<Counters> {
  const [current] = (
    await session.query<Record<string, number | string>>('SELECT * FROM imports WHERE id = $1', [row.id])
  ).rows;
  const { rows } = await session.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  const staged = Number(rows[0]?.n ?? 0);
  if (current && Number(current.staged_rows) === staged) {
    return {
      processed: Number(current.processed_rows),
      staged,
      duplicate: Number(current.duplicate_rows),
      existing: Number(current.existing_rows),
      invalid: Number(current.invalid_rows),
      roleAddress: Number(current.role_address_rows),
      empty: Number(current.empty_rows ?? 0),
      bytes: Number(current.bytes_processed),
    };
  }
  return startOver(session, row, table);
}

/** Forgets every batch written so far: staged rows, rejected rows, progress. */
async function startOver(session: ImportSession, row: ImportRow, table: string): Promise<Counters> {
  await session.transaction(async (tx) => {
    await tx.query(`TRUNCATE ${table}`);
    await tx.query('DELETE FROM import_rejections WHERE user_id = $1 AND import_id = $2', [
      row.userId,
      row.id,
    ]);
    await tx.query(
      `UPDATE imports SET processed_rows = 0, staged_rows = 0, duplicate_rows = 0, existing_rows = 0,
       invalid_rows = 0, role_address_rows = 0, empty_rows = 0, bytes_processed = 0 WHERE id = $1`,
      [row.id],
    );
  });
  return { ...ZERO_COUNTERS };
}

async function readFile(
  session: ImportSession,
  row: ImportRow,
  table: string,
  counters: Counters,
  options: ImportRunOptions,
  eager: EagerListMove | null,
): Promise<void> {
  const batchSize = options.batchSize ?? IMPORT_BATCH_SIZE;
  const mapping = row.mapping;
  if (!mapping) throw new ImportRefused(IMPORT_MESSAGES.mappingNoEmail);
  const processor = new RowProcessor({ target: row.target, mapping });
  const mx = row.options.checkMx ? (options.mx ?? new MxChecker()) : null;
  const ref: TargetRef = { target: row.target, userId: row.userId, listId: row.listId };
  const existing = new ExistingChecker(session, ref);
  await existing.start();
  const splitter = new RecordSplitter({
    delimiter: row.delimiter,
    lineBreak: row.lineBreak === '\r' ? '\r' : '\n',
    keepBlankLines: true,
  });
  // The header row, and any notes above it (LinkedIn), are not contacts. Inspections stored before the
  // header could sit lower had it on line 1.
  const headerLine = row.hasHeader ? (row.inspection.headerLine ?? 1) : 0;
  // Rows after the header that an earlier run saved, empty ones included.
  const skip = counters.processed + counters.empty;
  let dataIndex = 0;
  // Empty rows count once a row follows them: blank lines at the end of a file are no rows.
  let pendingEmpty = 0;
  const maxRows = row.target === 'list' ? (row.options.maxRows ?? null) : null;

  const file = createReadStream(row.filePath);
  const text: AsyncIterable<string | Buffer> =
    row.encoding === 'utf-8'
      ? file.setEncoding('utf8')
      : file.pipe(iconv.decodeStream(row.encoding, { stripBOM: true }));
  let first = true;
  // Totals as prepared (ahead of what is written by at most one batch).
  let prepared = { ...counters };
  const eagerList = eager !== null;
  let batch = new BatchBuilder({
    ref,
    importId: row.id,
    existing,
    mx,
    counters: prepared,
    eagerList,
    maxRows,
  });
  // One batch is written while the next is read and checked: the database and this process work at once.
  let writing: Promise<void> | null = null;

  const write = async () => {
    const ready = await batch.finish(file.bytesRead, row.sizeBytes);
    prepared = ready.counters;
    batch = new BatchBuilder({
      ref,
      importId: row.id,
      existing,
      mx,
      counters: prepared,
      eagerList,
      maxRows,
      expectedBytes: {
        staged: ready.staged.length,
        rejected: ready.rejected.length,
        listCopy: ready.listCopy.length,
      },
    });
    if (writing) await writing;
    if (options.signal?.aborted) throw new ImportInterrupted();
    if (eager && !eager.healthy) throw new EagerMoveLost();
    // The eager move copies the batch on its own connection while this one stages it.
    const moved = eager?.add(ready.listCopy, ready.listRows);
    writing = writeBatch(session, { table, importId: row.id, batch: ready }).then(async () => {
      await moved;
      Object.assign(counters, ready.counters);
      await options.onBatch?.({ processedRows: counters.processed, stagedRows: counters.staged });
    });
    // Surfaces at the next await; never left unhandled meanwhile.
    writing.catch(() => {});
  };

  // Each chunk's rows are read, checked and turned into COPY text at once, so they die young.
  const take = async (records: SplitRecord[]) => {
    if (records.length === 0) return;
    // An unpaired surrogate (a broken UTF-16 file) cannot go into jsonb: it becomes U+FFFD. (NUL bytes
    // are removed cell by cell, by cleanCell.)
    for (const record of records) if (record.text) record.text = toWellFormedText(record.text);
    for (const record of parseRecords(records, { delimiter: row.delimiter })) {
      if (record.line <= headerLine) continue;
      if (isEmptyRecord(record)) {
        pendingEmpty++;
        continue;
      }
      const index = dataIndex + pendingEmpty;
      const empties = pendingEmpty;
      dataIndex += pendingEmpty + 1;
      pendingEmpty = 0;
      if (index < skip) {
        processor.replay(record);
        continue;
      }
      batch.addEmpty(empties);
      batch.add(processor.process(record));
      if (batch.size >= batchSize) await write();
    }
  };

  try {
    for await (const chunk of text) {
      let value = typeof chunk === 'string' ? chunk : chunk.toString();
      if (first) {
        first = false;
        if (value.charCodeAt(0) === 0xfeff) value = value.slice(1);
      }
      await take(splitter.push(value));
    }
    await take(splitter.end());
    if (batch.size > 0) await write();
  } catch (error) {
    // The batch in flight ends (or fails) before the caller uses the session again.
    if (writing) await (writing as Promise<void>).catch(() => {});
    throw error;
  } finally {
    file.destroy();
  }
  if (writing) await writing;
  // The eager move's COPY ends here, so a row the server refuses fails it while the file can still be
  // read again the staged way.
  await eager?.settle();
  if (eager && !eager.healthy) throw new EagerMoveLost();
}

function isEmptyRecord(record: ParsedRecord): boolean {
  if ('error' in record) return false;
  for (const cell of record.cells) if (cell.trim() !== '') return false;
  return true;
}

/** A cancelled import keeps nothing: no staged rows, no report, no file. */
async function discard(session: ImportSession, row: ImportRow): Promise<void> {
  await dropUnfilledNewList(session, row);
  await session.query('DELETE FROM import_rejections WHERE user_id = $1 AND import_id = $2', [
    row.userId,
    row.id,
  ]);
  await session.query(
    `UPDATE imports SET finished_at = coalesce(finished_at, $2), updated_at = $2 WHERE id = $1`,
    [row.id, now()],
  );
  await cleanUp(session, row);
}

/**
 * "Leaves the list exactly as before": a list made for this import (a new list name at upload) did not
 * exist before, so it goes again when the import ends without filling it.
 */
async function dropUnfilledNewList(session: ImportSession, row: ImportRow): Promise<void> {
  if (!row.newListName || !row.listId) return;
  await session.query('DELETE FROM contact_lists WHERE id = $1 AND user_id = $2 AND contact_count = 0', [
    row.listId,
    row.userId,
  ]);
}

async function cleanUp(session: ImportSession, row: ImportRow): Promise<void> {
  await dropStaging(session, stagingTable(row.id));
  await unlink(row.filePath).catch(() => {});
}
