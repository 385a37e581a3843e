import type { Database } from '@server/db/client';
import {
  type DroppedMonths,
  dropMonthPartitionsBefore,
  ensureMonthPartitions,
  type MonthPartitionedTable,
  retentionCutoff,
  rowsOf,
} from '@server/db/month-partitions';
import { outboxArchive } from '@server/db/schema';
import { now } from '@server/lib/clock';
import { OUTBOX_STATES } from '@shared/sending';
import { getTableColumns, sql } from 'drizzle-orm';
import { deleteUnusedSharedBodies } from './outbox-bodies';

/*
 * Finished messages leave the dispatcher's table a week after they finished: they move to outbox_archive,
 * partitioned by month on updated_at (a finished row's last change), so the outbox stays the size of a
 * week's sending and retention drops whole archived months. Whatever reads finished messages reads
 * outbox_all, the view over both (schema/sending.ts).
 */

/** The states a message ends in; the dispatcher never touches a row again once it is in one of them. */
export const FINISHED_OUTBOX_STATES = OUTBOX_STATES.filter((s) => s !== 'queued' && s !== 'sending');

/** Days a finished message stays in the outbox (retries, recovery and the day's monitors read it there). */
export const ARCHIVE_AFTER_DAYS = 7;

const ARCHIVE: MonthPartitionedTable = { table: 'outbox_archive', column: 'updated_at' };

/** Rows moved per statement: a short transaction, a bounded lock set and WAL burst per batch. */
const BATCH_SIZE = 2_000;

export interface ArchiveRun {
  moved: number;
  batches: number;
}

/**
 * Moves finished messages whose last change is older than `olderThanDays` into outbox_archive, in batches.
 * Each batch is one statement (DELETE … RETURNING feeding an INSERT) in its own transaction: a job that
 * dies midway leaves every message in exactly one of the two tables, and the next run goes on. Rows
 * another transaction holds are skipped (the next run takes them). The move is no deletion for the
 * per-user figures (the outbox's delete trigger skips statements under tambari.outbox_archiving).
 * One run reads the table once, front to back.
 * `onBatch` runs inside each batch's transaction, after its move (tests interrupt the job there).
 */
export async function archiveFinishedOutbox(options: {
  db: Database;
  at?: Date;
  olderThanDays?: number;
  batchSize?: number;
  maxBatches?: number;
  onBatch?: (moved: number) => Promise<void> | void;
}): Promise<ArchiveRun> {
  const { db } = options;
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const before = new Date(
    (options.at ?? now()).getTime() - (options.olderThanDays ?? ARCHIVE_AFTER_DAYS) * 86_400_000,
  );
  const columns = sql.join(
    Object.values(getTableColumns(outboxArchive)).map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const states = sql.join(
    FINISHED_OUTBOX_STATES.map((s) => sql`${s}`),
    sql`, `,
  );
  const run: ArchiveRun = { moved: 0, batches: 0 };
  // Each batch goes on from the last row the one before took, in the heap's order (a TID range scan): the
  // table has no index on finished rows (it would cost the dispatcher an index write per message), and a
  // plain scan would pass over every row the earlier batches left dead, batch after batch.
  let cursor = '(0,0)';
  while (options.maxBatches === undefined || run.batches < options.maxBatches) {
    const moved = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('tambari.outbox_archiving', 'on', true)`);
      const [row] = rowsOf<{ n: number; last: string | null }>(
        await tx.execute(sql`
          WITH picked AS (
            SELECT id, ctid FROM outbox_messages
            WHERE ctid > ${cursor}::tid
              AND state IN (${states}) AND updated_at < ${before.toISOString()}::timestamptz
            LIMIT ${batchSize}
            FOR UPDATE SKIP LOCKED
          ), moved AS (
            DELETE FROM outbox_messages o USING picked WHERE o.id = picked.id
            RETURNING o.*
          ), archived AS (
            INSERT INTO outbox_archive (${columns}) SELECT ${columns} FROM moved
            RETURNING 1
          )
          SELECT (SELECT count(*)::int FROM archived) AS n, (SELECT max(ctid)::text FROM picked) AS last`),
      );
      const n = Number(row?.n ?? 0);
      cursor = row?.last ?? cursor;
      await options.onBatch?.(n);
      return n;
    });
    run.batches += 1;
    run.moved += moved;
    if (moved < batchSize) break;
  }
  return run;
}

/** Makes the archive's partitions of the current month and the months ahead (those missing). */
export function ensureOutboxArchivePartitions(options: { db: Database; at?: Date; ahead?: number }) {
  return ensureMonthPartitions({ ...options, partitioned: ARCHIVE });
}

export interface ArchiveExpiry extends DroppedMonths {
  /** Archived messages whose last change is before this instant (a UTC month's start) are gone. */
  cutoff: string;
  /** Rows past retention deleted from the default partition. */
  defaultRows: number;
  /** Shared bodies (outbox-bodies.ts) that only the expired messages named. */
  sharedBodies: number;
}

/**
 * Drops the archived messages of the months before the current one minus `retentionMonths`, whole
 * partitions at a time (those of the default partition are deleted through it). The per-user figures,
 * the analytics roll-ups and newsletter reports keep counting them (no trigger fires); what goes is the
 * messages themselves: their history rows, their web version and their tracking and unsubscribe links,
 * and the shared bodies no remaining message names.
 */
export async function expireOutboxArchive(options: {
  db: Database;
  retentionMonths: number;
  at?: Date;
}): Promise<ArchiveExpiry> {
  const { db } = options;
  const cutoff = retentionCutoff(options.retentionMonths, options.at);
  const months = await dropMonthPartitionsBefore({ db, table: ARCHIVE.table, cutoff });
  const [gone] = rowsOf<{ n: number }>(
    await db.execute(sql`
      WITH gone AS (
        DELETE FROM outbox_archive_default WHERE updated_at < ${cutoff.toISOString()}::timestamptz
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`),
  );
  // A message is queued after its body is stored, so bodies the expired messages named were stored
  // before the cutoff; those no message names any more go too. Only after messages went: the check reads
  // the remaining messages of the old bodies' campaigns.
  const defaultRows = Number(gone?.n ?? 0);
  const sharedBodies =
    months.dropped.length > 0 || defaultRows > 0
      ? await deleteUnusedSharedBodies({ db, createdBefore: cutoff })
      : 0;
  return { cutoff: cutoff.toISOString(), ...months, defaultRows, sharedBodies };
}
