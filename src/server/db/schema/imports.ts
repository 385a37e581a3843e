import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ImportInspection, ImportMapping } from '../../../shared/imports';
import { users } from './auth';
import { contactLists } from './contacts';

export const IMPORT_TARGET_VALUES = ['list', 'suppression', 'directory'] as const;
export const IMPORT_STATUS_VALUES = [
  'uploaded',
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
] as const;

/**
 * One CSV upload and the job that imports it. Progress is saved after every batch so a rerun resumes;
 * rows wait in a per-import staging table (`import_staging_<id>`, made by the job) until the end.
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    target: text('target', { enum: IMPORT_TARGET_VALUES }).notNull(),
    listId: uuid('list_id').references(() => contactLists.id, { onDelete: 'set null' }),
    /** Target `list` with a new list: made when the import starts. */
    newListName: text('new_list_name'),
    fileName: text('file_name').notNull(),
    /** Absolute path of the uploaded file; deleted when the import ends. */
    filePath: text('file_path').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    encoding: text('encoding').notNull(),
    delimiter: text('delimiter').notNull(),
    /** '\n' (also \r\n) or '\r' (old Mac files). */
    lineBreak: text('line_break').notNull(),
    hasHeader: boolean('has_header').notNull(),
    inspection: jsonb('inspection').$type<ImportInspection>().notNull(),
    mapping: jsonb('mapping').$type<ImportMapping>(),
    options: jsonb('options')
      .$type<{ checkMx: boolean; maxRows?: number | null }>()
      .notNull()
      .default({ checkMx: false }),
    status: text('status', { enum: IMPORT_STATUS_VALUES }).notNull().default('uploaded'),
    estimatedRows: integer('estimated_rows').notNull().default(0),
    totalRows: integer('total_rows'),
    processedRows: integer('processed_rows').notNull().default(0),
    bytesProcessed: bigint('bytes_processed', { mode: 'number' }).notNull().default(0),
    /** Rows in the staging table, checked on resume (an unlogged table is emptied by a server crash). */
    stagedRows: integer('staged_rows').notNull().default(0),
    importedRows: integer('imported_rows').notNull().default(0),
    duplicateRows: integer('duplicate_rows').notNull().default(0),
    existingRows: integer('existing_rows').notNull().default(0),
    invalidRows: integer('invalid_rows').notNull().default(0),
    roleAddressRows: integer('role_address_rows').notNull().default(0),
    /** Rows without a single value: skipped, and told in the summary. */
    emptyRows: integer('empty_rows').notNull().default(0),
    errorMessage: text('error_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('imports_user_created_idx').on(t.userId, t.createdAt),
    index('imports_status_idx').on(t.status, t.updatedAt),
  ],
);

/** Every row that was not imported, with its original cells: the import report. */
export const importRejections = pgTable(
  'import_rejections',
  {
    /*
     * No foreign keys: the two key checks (and the share locks they take) were most of PostgreSQL's work
     * per rejected row, ~10 µs each, in an import that rejects many rows. What the keys gave is kept by
     * hand: a statement trigger on imports deletes a deleted import's rows (imports go with their user
     * through their own key), and the only writer (the import's batch transaction) updates its import row
     * in the same transaction, so a concurrent delete either waits for it and then removes its rows, or
     * commits first and the batch finds no import and rolls back.
     */
    userId: text('user_id').notNull(),
    importId: uuid('import_id').notNull(),
    line: integer('line').notNull(),
    reason: text('reason').notNull(),
    values: jsonb('values').$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.importId, t.line] })],
);
