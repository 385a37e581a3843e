import type { Database } from '@server/db/client';
import {
  dropMonthPartitionsBefore,
  ensureMonthPartitions,
  listMonthPartitions,
  type MonthPartition,
  type MonthPartitionedTable,
  PARTITION_MONTHS_AHEAD,
  retentionCutoff,
  rowsOf,
} from '@server/db/month-partitions';
import { now } from '@server/lib/clock';
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

const EVENTS: MonthPartitionedTable = { table: 'email_events', column: 'occurred_at' };

export { PARTITION_MONTHS_AHEAD };
export type EventPartition = MonthPartition;

/** The partitions of email_events, months in order, then the default partition. */
export function listEventPartitions(db: Database): Promise<EventPartition[]> {
  return listMonthPartitions(db, EVENTS.table);
}

/**
 * Makes the partitions of the month of `at` and the `ahead` months after it (those missing); their
 * events already in the default partition move in. Returns the names made.
 */
export function ensureEventPartitions(options: {
  db: Database;
  at?: Date;
  ahead?: number;
}): Promise<string[]> {
  return ensureMonthPartitions({ ...options, partitioned: EVENTS });
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
  const cutoff = retentionCutoff(options.retentionMonths, options.at);
  const [progress] = rowsOf<{ last_event_id: string | number }>(
    await db.execute(sql`SELECT last_event_id FROM platform_stats_progress WHERE name = ${ROLLUP_NAME}`),
  );
  const watermark = Number(progress?.last_event_id ?? 0);
  const months = await dropMonthPartitionsBefore({
    db,
    table: EVENTS.table,
    cutoff,
    ready: async (partition) => {
      const [unread] = rowsOf<{ unread: boolean }>(
        await db.execute(
          sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(partition)} WHERE id > ${watermark}) AS unread`,
        ),
      );
      return !unread?.unread;
    },
  });
  const result: ExpireResult = { cutoff: cutoff.toISOString(), ...months, defaultRows: 0 };

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
