import type { Database } from '@server/db/client';
import { findJob } from '@server/jobs/registry';
import { now } from '@server/lib/clock';
import { LIST_RECYCLE_BIN_DAYS } from '@shared/contacts';
import {
  COST_USERS_LIMIT,
  type CostOptimization,
  IDLE_PAID_DAYS,
  type IdlePaidAccount,
  type StaleData,
  type TableStorage,
  type UserCost,
} from '@shared/cost-optimization';
import { RECYCLE_BIN_DAYS } from '@shared/recycle-bin';
import { PAGE_VIEW_RETENTION_DAYS } from '@shared/site-traffic';
import { sql } from 'drizzle-orm';
import { withRollupSnapshot } from '../admin-analytics/platform-rollup.service';
import { ABANDONED_UPLOAD_MS, STUCK_IMPORT_MS } from '../imports/imports.service';

const DAY_MS = 86_400_000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const num = (value: unknown) => Number(value ?? 0);
const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);

/**
 * Every table's size on disk with its indexes, largest first. On PGlite these are the sizes of its own
 * data files (in memory or under DATA_DIR), measured the same way as on PostgreSQL. A partitioned table
 * (email_events, by month) is one row: the sums over its partitions, which are not listed apart.
 */
async function tableStorage(db: Database): Promise<{ tables: TableStorage[]; databaseBytes: number }> {
  const [tables, database] = await Promise.all([
    db.execute(sql`
      SELECT n.nspname AS schema, c.relname AS table, s.total, s.heap, s.idx,
             CASE WHEN c.relkind = 'p' THEN s.rows ELSE c.reltuples::bigint END AS rows
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      CROSS JOIN LATERAL (
        SELECT sum(pg_total_relation_size(t.relid))::bigint AS total,
               sum(pg_relation_size(t.relid))::bigint AS heap,
               sum(pg_indexes_size(t.relid))::bigint AS idx,
               sum(greatest(p.reltuples, 0))::bigint AS rows
        FROM (SELECT c.oid AS relid WHERE c.relkind = 'r'
              UNION ALL SELECT relid FROM pg_partition_tree(c.oid) WHERE c.relkind = 'p' AND isleaf) t
        JOIN pg_class p ON p.oid = t.relid
      ) s
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
      ORDER BY 3 DESC, 2`),
    db.execute(sql`SELECT pg_database_size(current_database())::bigint AS bytes`),
  ]);
  return {
    tables: rowsOf<Record<string, unknown>>(tables).map((r) => ({
      schema: String(r.schema),
      table: String(r.table),
      totalBytes: num(r.total),
      tableBytes: num(r.heap),
      indexBytes: num(r.idx),
      rowEstimate: num(r.rows) >= 0 ? num(r.rows) : null,
    })),
    databaseBytes: num(rowsOf<{ bytes: unknown }>(database)[0]?.bytes),
  };
}

/**
 * The users holding the most data: their rows in the big per-user tables, each weighted by the average
 * size of a row of that table (its size on disk over all its rows), against what they paid.
 */
async function userCosts(
  db: Database,
  tables: TableStorage[],
  sinceDay: string,
  userFilter: string | undefined,
): Promise<{ users: UserCost[]; usersTotal: number }> {
  // Events of all time: the roll-up's per-user totals plus the events written since its last run.
  const bytes = (name: string) =>
    tables.find((t) => t.table === name && t.schema !== 'pgboss')?.totalBytes ?? 0;
  // A user's messages are counted live or archived (outbox_user_totals): both tables' bytes share them.
  const outboxBytes = bytes('outbox_messages') + bytes('outbox_archive');
  // In one snapshot with the watermark, so a roll-up committed meanwhile is not counted twice.
  const result = await withRollupSnapshot(db, (tx, { lastEventId: watermark }) =>
    tx.execute(sql`
    WITH li AS (SELECT user_id, count(*) AS n FROM contact_lists GROUP BY user_id),
         -- Each list's kept count (list_contacts_track_count, exact at every commit), not a walk of
         -- every contact: lists in the recycle bin still hold their contacts, so they count too.
         lc AS (SELECT user_id, sum(contact_count) AS n FROM contact_lists GROUP BY user_id),
         ob AS (SELECT user_id, messages AS n FROM outbox_user_totals),
         s30 AS (SELECT user_id, sum(sent) AS n FROM outbox_user_daily WHERE day >= ${sinceDay}::date
                 GROUP BY user_id),
         ev AS (SELECT user_id, sum(n) AS n FROM (
                  SELECT user_id, events AS n FROM platform_user_totals
                  UNION ALL
                  SELECT user_id, count(*) FROM email_events WHERE id > ${watermark} GROUP BY user_id) t
                GROUP BY user_id),
         rev AS (SELECT user_id, sum(amount) AS kobo FROM orders
                 WHERE status = 'success' AND currency = 'NGN' GROUP BY user_id),
         per AS (
           SELECT u.id, u.email, u.subscription_plan, u.subscription_status,
                  coalesce(li.n, 0) AS lists, coalesce(lc.n, 0) AS contacts, coalesce(ob.n, 0) AS outbox,
                  coalesce(s30.n, 0) AS sent30, coalesce(ev.n, 0) AS events, coalesce(rev.kobo, 0) AS kobo
           FROM "user" u
           LEFT JOIN li ON li.user_id = u.id LEFT JOIN lc ON lc.user_id = u.id
           LEFT JOIN ob ON ob.user_id = u.id LEFT JOIN s30 ON s30.user_id = u.id
           LEFT JOIN ev ON ev.user_id = u.id
           LEFT JOIN rev ON rev.user_id = u.id),
         weighted AS (
           SELECT per.*,
                  lists * ${bytes('contact_lists')}::float8 / greatest(sum(lists) OVER (), 1)
                + contacts * ${bytes('list_contacts')}::float8 / greatest(sum(contacts) OVER (), 1)
                + outbox * ${outboxBytes}::float8 / greatest(sum(outbox) OVER (), 1)
                + events * ${bytes('email_events')}::float8 / greatest(sum(events) OVER (), 1) AS est
           FROM per)
    SELECT *, count(*) OVER () AS users_total FROM weighted
    WHERE ${userFilter ? sql`strpos(lower(email), lower(${userFilter})) > 0` : sql`true`}
    ORDER BY est DESC, email LIMIT ${COST_USERS_LIMIT}`),
  );
  const rows = rowsOf<Record<string, unknown>>(result);
  return {
    usersTotal: num(rows[0]?.users_total),
    users: rows.map((r) => ({
      userId: String(r.id),
      email: String(r.email),
      plan: String(r.subscription_plan),
      subscriptionStatus: (r.subscription_status as string | null) ?? null,
      lists: num(r.lists),
      contacts: num(r.contacts),
      outboxMessages: num(r.outbox),
      events: num(r.events),
      sent30d: num(r.sent30),
      estimatedBytes: Math.round(num(r.est)),
      revenueKobo: num(r.kobo),
    })),
  };
}

/** Subscribers on an active paid plan who sent nothing in the last 30 days, best payers first. */
async function idlePaidAccounts(db: Database, sinceDay: string): Promise<IdlePaidAccount[]> {
  const result = await db.execute(sql`
    SELECT u.id, u.email, u.subscription_plan, u.subscription_current_period_end AS period_end,
           (SELECT max(d.last_sent_at) FROM outbox_user_daily d WHERE d.user_id = u.id) AS last_sent,
           (SELECT coalesce(sum(amount), 0) FROM orders r
            WHERE r.user_id = u.id AND r.status = 'success' AND r.currency = 'NGN') AS kobo
    FROM "user" u
    WHERE u.role = 'user' AND u.subscription_plan <> 'free' AND u.subscription_status = 'active'
      AND NOT EXISTS (SELECT 1 FROM outbox_user_daily d WHERE d.user_id = u.id AND d.day >= ${sinceDay}::date)
    ORDER BY kobo DESC, u.email LIMIT ${COST_USERS_LIMIT}`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    userId: String(r.id),
    email: String(r.email),
    plan: String(r.subscription_plan),
    periodEnd: iso(r.period_end),
    lastSentAt: iso(r.last_sent),
    revenueKobo: num(r.kobo),
  }));
}

/** Rows the scheduled purge jobs will remove on their next run, with each job's schedule. */
async function staleData(db: Database, at: Date): Promise<StaleData[]> {
  const ago = (ms: number) => new Date(at.getTime() - ms);
  const count = async (query: ReturnType<typeof sql>) =>
    num(rowsOf<{ n: unknown }>(await db.execute(query))[0]?.n);
  const binCutoff = ago(RECYCLE_BIN_DAYS * DAY_MS);
  const [lists, directory, owned, sessions, views, events, imports] = await Promise.all([
    count(sql`SELECT count(*) AS n FROM contact_lists
              WHERE deleted_at < ${ago(LIST_RECYCLE_BIN_DAYS * DAY_MS)}`),
    count(sql`SELECT count(*) AS n FROM directory_contacts
              WHERE deleted_at < ${ago(RECYCLE_BIN_DAYS * DAY_MS)}`),
    count(sql`SELECT (SELECT count(*) FROM campaigns WHERE deleted_at < ${binCutoff})
                   + (SELECT count(*) FROM newsletters WHERE deleted_at < ${binCutoff})
                   + (SELECT count(*) FROM email_templates WHERE deleted_at < ${binCutoff}) AS n`),
    count(sql`SELECT (SELECT count(*) FROM session WHERE expires_at < ${at})
                   + (SELECT count(*) FROM verification WHERE expires_at < ${at}) AS n`),
    count(sql`SELECT count(*) AS n FROM site_page_views
              WHERE occurred_at < ${ago(PAGE_VIEW_RETENTION_DAYS * DAY_MS)}`),
    count(
      sql`SELECT count(*) AS n FROM email_events WHERE user_id IN (SELECT user_id FROM deleted_accounts)`,
    ),
    count(sql`SELECT count(*) AS n FROM imports
              WHERE (status = 'uploaded' AND updated_at < ${ago(ABANDONED_UPLOAD_MS)})
                 OR (status IN ('queued', 'running') AND updated_at < ${ago(STUCK_IMPORT_MS)})`),
  ]);
  // The schedules come from the job registry, so this page never disagrees with the worker.
  const job = (name: string) => ({ job: name, cron: findJob(name)?.cron ?? '' });
  return [
    {
      key: 'deleted-lists',
      label: 'Lists in the recycle bin',
      rows: lists,
      rule: `Deleted over ${LIST_RECYCLE_BIN_DAYS} days ago, with their contacts`,
      ...job('purge-deleted-lists'),
    },
    {
      key: 'deleted-directory',
      label: 'Directory records in the recycle bin',
      rows: directory,
      rule: `Deleted over ${RECYCLE_BIN_DAYS} days ago`,
      ...job('purge-deleted-directory-contacts'),
    },
    {
      key: 'deleted-owned-items',
      label: 'Campaigns, newsletters and templates in the recycle bin',
      rows: owned,
      rule: `Deleted over ${RECYCLE_BIN_DAYS} days ago`,
      ...job('purge-recycle-bin'),
    },
    {
      key: 'expired-sessions',
      label: 'Expired sessions and tokens',
      rows: sessions,
      rule: 'Past their expiry',
      ...job('purge-expired-sessions'),
    },
    {
      key: 'old-page-views',
      label: 'Website page views',
      rows: views,
      rule: `Older than ${PAGE_VIEW_RETENTION_DAYS} days`,
      ...job('purge-site-traffic'),
    },
    {
      key: 'deleted-account-events',
      label: 'Events of deleted accounts',
      rows: events,
      rule: 'Written after their account was deleted',
      ...job('purge-deleted-account-events'),
    },
    {
      key: 'stale-imports',
      label: 'Abandoned and stuck imports',
      rows: imports,
      rule: 'Uploads never started after 24 h; imports without progress for 6 h',
      ...job('purge-stale-imports'),
    },
  ];
}

/**
 * The first UTC day of the sending window: whole days, because the outbox figures are kept per user and
 * UTC day (outbox_user_daily, by triggers), so the window is today and the IDLE_PAID_DAYS days before it.
 */
export function windowStartDay(at: Date): string {
  return new Date(at.getTime() - IDLE_PAID_DAYS * DAY_MS).toISOString().slice(0, 10);
}

/** The Cost Optimization screen's figures, read live (the outbox figures are kept exact by triggers). */
export async function getCostOptimization(options: {
  db: Database;
  engine: 'postgres' | 'pglite';
  userFilter?: string;
}): Promise<CostOptimization> {
  const { db } = options;
  const at = now();
  const sinceDay = windowStartDay(at);
  const storage = await tableStorage(db);
  const [users, idle, stale] = await Promise.all([
    userCosts(db, storage.tables, sinceDay, options.userFilter),
    idlePaidAccounts(db, sinceDay),
    staleData(db, at),
  ]);
  return {
    generatedAt: at.toISOString(),
    engine: options.engine,
    databaseBytes: storage.databaseBytes,
    tables: storage.tables,
    users: users.users,
    usersTotal: users.usersTotal,
    idlePaidAccounts: idle,
    staleData: stale,
  };
}
