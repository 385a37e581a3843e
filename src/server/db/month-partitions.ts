import type { Database } from '@server/db/client';
import { now, startOfUtcMonth } from '@server/lib/clock';
import { sql } from 'drizzle-orm';

/*
 * Tables partitioned by UTC month (email_events on occurred_at, outbox_archive on updated_at): one
 * partition a month, `<table>_pYYYY_MM`, and `<table>_default` for whatever no month takes, so an insert
 * never fails. Months are made ahead by the SQL function add_month_partition (migration 0062) and expire
 * by detaching and dropping whole partitions: no row-by-row DELETE, no vacuum debt, no index bloat.
 */

/** A monthly-partitioned table: its name and the timestamp column it is partitioned on. */
export interface MonthPartitionedTable {
  table: 'email_events' | 'outbox_archive';
  column: 'occurred_at' | 'updated_at';
}

/** Months made ahead of the current one, so a month's first row never lands in the default partition. */
export const PARTITION_MONTHS_AHEAD = 2;

/** How long partition maintenance waits for a lock before leaving the month for its next run. */
const LOCK_TIMEOUT = '5s';

function isLockTimeout(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '55P03') return true;
  }
  return false;
}

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export function addUtcMonths(at: Date, months: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

function partitionName(table: string, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

export interface MonthPartition {
  name: string;
  /** The month's first instant (UTC); null for the default partition. */
  from: Date | null;
  /** The next month's first instant; null for the default partition. */
  to: Date | null;
}

/** The partitions of `table`, months in order, then the default partition. */
export async function listMonthPartitions(
  db: Database,
  table: MonthPartitionedTable['table'],
): Promise<MonthPartition[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = ${table}::regclass ORDER BY c.relname`),
  );
  const pattern = new RegExp(`^${table}_p(\\d{4})_(\\d{2})$`);
  const months: MonthPartition[] = [];
  const others: MonthPartition[] = [];
  for (const { name } of rows) {
    const match = pattern.exec(name);
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
 * Makes the partitions of the month of `at` and the `ahead` months after it (those missing); their rows
 * already in the default partition move in (add_month_partition). Returns the names made. Each month in
 * a transaction of its own: it briefly holds the default partition's lock. A lock not had within a few
 * seconds fails the run; the job's next run makes the month (they are made months ahead).
 */
export async function ensureMonthPartitions(options: {
  db: Database;
  partitioned: MonthPartitionedTable;
  at?: Date;
  ahead?: number;
}): Promise<string[]> {
  const { table, column } = options.partitioned;
  const first = startOfUtcMonth(options.at ?? now());
  const made: string[] = [];
  for (let i = 0; i <= (options.ahead ?? PARTITION_MONTHS_AHEAD); i++) {
    const month = addUtcMonths(first, i);
    const [row] = rowsOf<{ made: boolean }>(
      await options.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
        return tx.execute(
          sql`SELECT add_month_partition(${table}, ${column}, ${month.toISOString()}::timestamptz) AS made`,
        );
      }),
    );
    if (row?.made) made.push(partitionName(table, month));
  }
  return made;
}

/** The months before the current one minus `retentionMonths` expire: the cutoff is a month's start. */
export function retentionCutoff(retentionMonths: number, at?: Date): Date {
  if (!Number.isInteger(retentionMonths) || retentionMonths < 1) {
    throw new Error('retentionMonths must be a whole number of months, at least 1');
  }
  return addUtcMonths(startOfUtcMonth(at ?? now()), -retentionMonths);
}

export interface DroppedMonths {
  /** Partitions detached and dropped. */
  dropped: string[];
  /** Partitions past retention kept for now: `ready` said not yet. */
  waiting: string[];
  /** Partitions past retention kept for now: the table was too busy to detach them (lock timeout). */
  busy: string[];
}

/**
 * Detaches and drops every month partition of `table` that ends at or before `cutoff` (a month's start,
 * so none straddles it) and that `ready` allows. Statement triggers on the partitioned table do not fire:
 * what they keep (roll-ups, counters) keeps the dropped months. Safe to run again.
 */
export async function dropMonthPartitionsBefore(options: {
  db: Database;
  table: MonthPartitionedTable['table'];
  cutoff: Date;
  ready?: (partition: string) => Promise<boolean>;
}): Promise<DroppedMonths> {
  const { db, table, cutoff } = options;
  const result: DroppedMonths = { dropped: [], waiting: [], busy: [] };
  for (const partition of await listMonthPartitions(db, table)) {
    if (!partition.to || partition.to.getTime() > cutoff.getTime()) continue;
    if (options.ready && !(await options.ready(partition.name))) {
      result.waiting.push(partition.name);
      continue;
    }
    try {
      await db.transaction(async (tx) => {
        // DETACH takes the partitioned table's exclusive lock: behind a long read, every write would
        // queue behind it. It gives up instead, and the next run tries again.
        await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
        await tx.execute(
          sql`ALTER TABLE ${sql.identifier(table)} DETACH PARTITION ${sql.identifier(partition.name)}`,
        );
        await tx.execute(sql`DROP TABLE ${sql.identifier(partition.name)}`);
      });
      result.dropped.push(partition.name);
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      result.busy.push(partition.name);
    }
  }
  return result;
}
