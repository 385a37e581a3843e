import type { Database } from '@server/db/client';
import { now, startOfUtcMonth } from '@server/lib/clock';
import { sql } from 'drizzle-orm';
import { ROLLUP_NAME } from '../admin-analytics/platform-rollup.service';

/*
 * email_events is partitioned by UTC month on occurred_at (migration *_email_events_partitions): one
 * partition a month, `email_events_pYYYY_MM`, and a default partition for whatever no month takes, so an
 * insert never fails. The daily maintain-event-partitions job makes the coming months ahead and, when
 * EVENT_RETENTION_MONTHS is set, expires the months past retention by detaching and dropping their
 * partitions: no row-by-row DELETE, no vacuum debt, no index bloat.
 *
 * Roll-ups are kept, events expire. The analytics roll-ups and a newsletter's report counters follow
 * email_events through statement-level triggers on the partitioned table; detaching or dropping a
 * partition fires none of them, so they keep counting the expired months (they are the only record left).
 * event_retention remembers the cutoff so that `analytics_rebuild()` recounts only the kept days.
 */

/** Months made ahead of the current one, so a month's first event never lands in the default partition. */
export const PARTITION_MONTHS_AHEAD = 2;

const PARTITION_NAME = /^email_events_p(\d{4})_(\d{2})$/;

/** How long partition maintenance waits for a lock before leaving the month for its next run. */
const LOCK_TIMEOUT = '5s';

function isLockTimeout(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '55P03') return true;
  }
  return false;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

function addUtcMonths(at: Date, months: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

export interface EventPartition {
  name: string;
  /** The month's first instant (UTC); null for the default partition. */
  from: Date | null;
  /** The next month's first instant; null for the default partition. */
  to: Date | null;
}

/** The partitions of email_events, months in order, then the default partition. */
export async function listEventPartitions(db: Database): Promise<EventPartition[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'email_events'::regclass ORDER BY c.relname`),
  );
  const months: EventPartition[] = [];
  const others: EventPartition[] = [];
  for (const { name } of rows) {
    const match = PARTITION_NAME.exec(name);
    if (!match) {
      others.push({ name, from: null, to: null });
      continue;
    }
    const from = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
    months.push({ name, from, to: addUtcMonths(from, 1) });
  }
  return [...months, ...others];
}

/**
 * Makes the partitions of the month of `at` and the `ahead` months after it (those missing); their
 * events already in the default partition move in (email_events_add_partition). Returns the names made.
 * Each month in a transaction of its own: it briefly holds the default partition's lock. A lock not had
 * within a few seconds fails the run; the job's next run makes the month (they are made months ahead).
 */
export async function ensureEventPartitions(options: {
  db: Database;
  at?: Date;
  ahead?: number;
}): Promise<string[]> {
  const first = startOfUtcMonth(options.at ?? now());
  const made: string[] = [];
  for (let i = 0; i <= (options.ahead ?? PARTITION_MONTHS_AHEAD); i++) {
    const month = addUtcMonths(first, i);
    const [row] = rowsOf<{ made: boolean }>(
      await options.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
        return tx.execute(
          sql`SELECT email_events_add_partition(${month.toISOString()}::timestamptz) AS made`,
        );
      }),
    );
    if (row?.made) {
      made.push(
        `email_events_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
      );
    }
  }
  return made;
}

export interface ExpireResult {
  /** Events before this instant (a UTC month's start) are expired. */
  cutoff: string;
  /** Partitions detached and dropped. */
  dropped: string[];
  /** Partitions past retention kept for now: the operator's roll-up has not read all their events yet. */
  waiting: string[];
  /** Partitions past retention kept for now: the table was too busy to detach them (lock timeout). */
  busy: string[];
  /** Rows past retention deleted from the default partition. */
  defaultRows: number;
}

/**
 * Expires the events of the months before the current one minus `retentionMonths`: at least that many
 * whole months are kept besides the current one, so the cutoff is a month's start and no month partition
 * straddles it — whole partitions go, none is trimmed. A partition goes only once the operator's roll-up
 * (platform-rollup.service.ts, which reads events by id after its watermark) has folded in all of its
 * events; the default partition's rows past the cutoff (a month with no partition of its own) are
 * deleted under the same condition, through the partition itself so that the roll-up triggers on
 * email_events do not fire — expiring never recounts. Safe to run again: what is gone stays gone.
 */
export async function expireEvents(options: {
  db: Database;
  retentionMonths: number;
  at?: Date;
}): Promise<ExpireResult> {
  const { db } = options;
  if (!Number.isInteger(options.retentionMonths) || options.retentionMonths < 1) {
    throw new Error('retentionMonths must be a whole number of months, at least 1');
  }
  const cutoff = addUtcMonths(startOfUtcMonth(options.at ?? now()), -options.retentionMonths);
  const [progress] = rowsOf<{ last_event_id: string | number }>(
    await db.execute(sql`SELECT last_event_id FROM platform_stats_progress WHERE name = ${ROLLUP_NAME}`),
  );
  const watermark = Number(progress?.last_event_id ?? 0);
  const result: ExpireResult = {
    cutoff: cutoff.toISOString(),
    dropped: [],
    waiting: [],
    busy: [],
    defaultRows: 0,
  };

  for (const partition of await listEventPartitions(db)) {
    if (!partition.to || partition.to.getTime() > cutoff.getTime()) continue;
    const table = sql.identifier(partition.name);
    const [unread] = rowsOf<{ unread: boolean }>(
      await db.execute(sql`SELECT EXISTS (SELECT 1 FROM ${table} WHERE id > ${watermark}) AS unread`),
    );
    if (unread?.unread) {
      result.waiting.push(partition.name);
      continue;
    }
    try {
      await db.transaction(async (tx) => {
        // DETACH takes the partitioned table's exclusive lock: behind a long read, every tracking write
        // would queue behind it. It gives up instead, and the next run tries again.
        await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
        await tx.execute(sql`ALTER TABLE email_events DETACH PARTITION ${table}`);
        await tx.execute(sql`DROP TABLE ${table}`);
      });
      result.dropped.push(partition.name);
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      result.busy.push(partition.name);
    }
  }

  const deleted = rowsOf<{ n: number }>(
    await db.execute(sql`
      WITH gone AS (
        DELETE FROM email_events_default
        WHERE occurred_at < ${cutoff.toISOString()}::timestamptz AND id <= ${watermark}
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`),
  );
  result.defaultRows = Number(deleted[0]?.n ?? 0);

  // The rebuild recounts from here on; a shorter retention later moves it forward, never back.
  await db.execute(sql`
    INSERT INTO event_retention (name, expired_before, updated_at)
    VALUES ('email_events', ${cutoff.toISOString()}::timestamptz, ${now().toISOString()}::timestamptz)
    ON CONFLICT (name) DO UPDATE SET
      expired_before = greatest(event_retention.expired_before, excluded.expired_before),
      updated_at = excluded.updated_at`);
  return result;
}
