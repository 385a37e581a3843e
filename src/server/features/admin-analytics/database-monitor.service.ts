import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import type { DatabaseMonitor, RunningQuery, SlowStatement } from '@shared/admin-analytics';
import { sql } from 'drizzle-orm';
import { iso, rowsOf } from './sql-rows';

/*
 * The Database Monitor: PostgreSQL's own catalogues and statistics views (pg_class, pg_stat_*), which
 * are small and kept in memory, so reading them costs the database nothing it would notice. The
 * embedded default (PGlite) is one process with one connection and no autovacuum: the figures that
 * cannot exist there are null, with a note saying why.
 */

const TOP_TABLES = 30;
const TOP_INDEXES = 30;
const TOP_STATEMENTS = 10;
/** A statement running longer than this is listed. */
export const LONG_RUNNING_SECONDS = 5;
const QUERY_TEXT_LIMIT = 600;

/**
 * A statement as pg_stat_activity shows it, with its literals replaced: a query sent with its values
 * inline (rather than as $1 parameters) must not put an address or a token on the operator's screen.
 */
export function withoutLiterals(query: string): string {
  return query
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g, '?')
    .replace(/(?<![\w$])\d+(?:\.\d+)?\b/g, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, QUERY_TEXT_LIMIT);
}

const NOTES = {
  pgliteConnections:
    'Connections and long-running queries: the embedded database (PGlite) is one process with one ' +
    'connection, so there are none to count. Run on PostgreSQL (DATABASE_URL) to see them.',
  pgliteStatements:
    'Slowest statements: pg_stat_statements is not available in the embedded database (PGlite).',
  pgliteVacuum:
    'Vacuum: the embedded database has no autovacuum; dead rows stay until a VACUUM is run. Row ' +
    'estimates appear after ANALYZE.',
  statementsMissing:
    'Slowest statements: the pg_stat_statements extension is not installed. Add ' +
    "shared_preload_libraries = 'pg_stat_statements' to postgresql.conf, restart PostgreSQL, then run " +
    'CREATE EXTENSION pg_stat_statements; in this database.',
  statementsNotLoaded:
    'Slowest statements: the pg_stat_statements extension exists but is not loaded. Add ' +
    "shared_preload_libraries = 'pg_stat_statements' to postgresql.conf and restart PostgreSQL.",
} as const;

type TableRow = {
  name: string;
  row_estimate: string | number;
  total_bytes: string | number;
  table_bytes: string | number;
  index_bytes: string | number;
  dead_rows: string | number | null;
  last_vacuum: Date | string | null;
  last_analyze: Date | string | null;
};

export async function getDatabaseMonitor(options: {
  db: Database;
  engine: 'postgres' | 'pglite';
}): Promise<DatabaseMonitor> {
  const { db, engine } = options;
  const at = now();
  const notes: string[] = [];

  // Sizes come from the catalogue (pg_class) and the files' sizes; no table is read.
  const [version, size, tables, indexes, cache, extension] = await Promise.all([
    db.execute(sql`SELECT current_setting('server_version') AS version`),
    db.execute(sql`SELECT pg_database_size(current_database())::bigint AS bytes`),
    // A partitioned table (email_events, by month) is one row over its partitions, not listed apart:
    // its sizes and dead rows are their sums, its vacuum and analyze the latest of any partition.
    db.execute(sql`
      SELECT n.nspname || '.' || c.relname AS name, t.row_estimate, t.total_bytes, t.table_bytes,
        t.index_bytes, t.dead_rows, t.last_vacuum, t.last_analyze
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      CROSS JOIN LATERAL (
        SELECT CASE WHEN c.relkind = 'p' THEN sum(greatest(p.reltuples, 0)) ELSE max(p.reltuples) END::bigint
            AS row_estimate,
          sum(pg_total_relation_size(p.oid))::bigint AS total_bytes,
          sum(pg_relation_size(p.oid))::bigint AS table_bytes,
          sum(pg_indexes_size(p.oid))::bigint AS index_bytes, sum(s.n_dead_tup)::bigint AS dead_rows,
          max(greatest(s.last_vacuum, s.last_autovacuum)) AS last_vacuum,
          max(greatest(s.last_analyze, s.last_autoanalyze)) AS last_analyze
        FROM (SELECT c.oid AS relid WHERE c.relkind <> 'p'
              UNION ALL SELECT relid FROM pg_partition_tree(c.oid) WHERE c.relkind = 'p' AND isleaf) l
        JOIN pg_class p ON p.oid = l.relid
        LEFT JOIN pg_stat_user_tables s ON s.relid = p.oid
      ) t
      WHERE c.relkind IN ('r', 'p', 'm') AND NOT c.relispartition
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
      ORDER BY t.total_bytes DESC NULLS LAST
      LIMIT ${TOP_TABLES}`),
    db.execute(sql`
      SELECT s.schemaname || '.' || s.indexrelname AS name, s.schemaname || '.' || s.relname AS table_name,
        pg_relation_size(s.indexrelid)::bigint AS bytes, s.idx_scan AS scans
      FROM pg_stat_user_indexes s
      ORDER BY pg_relation_size(s.indexrelid) DESC
      LIMIT ${TOP_INDEXES}`),
    db.execute(sql`
      SELECT blks_hit::bigint AS hit, blks_read::bigint AS read FROM pg_stat_database
      WHERE datname = current_database()`),
    db.execute(sql`SELECT 1 AS present FROM pg_extension WHERE extname = 'pg_stat_statements'`),
  ]);

  const cacheRow = rowsOf<{ hit: string | number; read: string | number }>(cache)[0];
  const hit = Number(cacheRow?.hit ?? 0);
  const read = Number(cacheRow?.read ?? 0);

  let connections: DatabaseMonitor['connections'] = null;
  let longRunning: RunningQuery[] | null = null;
  let slowStatements: SlowStatement[] | null = null;

  if (engine === 'pglite') {
    notes.push(NOTES.pgliteConnections, NOTES.pgliteStatements, NOTES.pgliteVacuum);
  } else {
    const [activity, running] = await Promise.all([
      db.execute(sql`
        SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'active')::int AS active,
          count(*) FILTER (WHERE state = 'idle')::int AS idle,
          count(*) FILTER (WHERE state LIKE 'idle in transaction%')::int AS idle_in_transaction,
          current_setting('max_connections')::int AS max
        FROM pg_stat_activity WHERE backend_type = 'client backend'`),
      db.execute(sql`
        SELECT pid, state, coalesce(application_name, '') AS application,
          extract(epoch from now() - query_start)::float8 AS age, wait_event, query
        FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND state <> 'idle' AND pid <> pg_backend_pid()
          AND query_start < now() - make_interval(secs => ${LONG_RUNNING_SECONDS})
        ORDER BY query_start
        LIMIT 20`),
    ]);
    const activityRow = rowsOf<{
      total: number;
      active: number;
      idle: number;
      idle_in_transaction: number;
      max: number;
    }>(activity)[0];
    connections = {
      total: Number(activityRow?.total ?? 0),
      active: Number(activityRow?.active ?? 0),
      idle: Number(activityRow?.idle ?? 0),
      idleInTransaction: Number(activityRow?.idle_in_transaction ?? 0),
      max: Number(activityRow?.max ?? 0),
    };
    longRunning = rowsOf<{
      pid: number;
      state: string;
      application: string;
      age: number;
      wait_event: string | null;
      query: string | null;
    }>(running).map((row) => ({
      pid: Number(row.pid),
      state: row.state,
      application: row.application,
      ageSeconds: Math.round(Number(row.age)),
      waitEvent: row.wait_event,
      query: withoutLiterals(row.query ?? ''),
    }));

    if (rowsOf(extension).length === 0) {
      notes.push(NOTES.statementsMissing);
    } else {
      slowStatements = await readSlowStatements(db);
      if (slowStatements === null) notes.push(NOTES.statementsNotLoaded);
    }
  }

  return {
    generatedAt: at.toISOString(),
    engine,
    version: String(rowsOf<{ version: string }>(version)[0]?.version ?? ''),
    databaseBytes: Number(rowsOf<{ bytes: string | number }>(size)[0]?.bytes ?? 0),
    tables: rowsOf<TableRow>(tables).map((row) => ({
      name: row.name,
      rowEstimate: Number(row.row_estimate),
      totalBytes: Number(row.total_bytes),
      tableBytes: Number(row.table_bytes),
      indexBytes: Number(row.index_bytes),
      deadRows: row.dead_rows === null ? null : Number(row.dead_rows),
      lastVacuum: iso(row.last_vacuum),
      lastAnalyze: iso(row.last_analyze),
    })),
    indexes: rowsOf<{
      name: string;
      table_name: string;
      bytes: string | number;
      scans: string | number | null;
    }>(indexes).map((row) => ({
      name: row.name,
      table: row.table_name,
      bytes: Number(row.bytes),
      scans: row.scans === null ? null : Number(row.scans),
    })),
    connections,
    cacheHitRatio: hit + read > 0 ? hit / (hit + read) : null,
    slowStatements,
    longRunning,
    notes,
  };
}

/** The statements with the longest mean time; null when the extension is installed but not loaded. */
async function readSlowStatements(db: Database): Promise<SlowStatement[] | null> {
  try {
    const rows = rowsOf<{
      query: string;
      calls: string | number;
      mean_ms: number;
      total_ms: number;
      rows: string | number;
    }>(
      await db.execute(sql`
        SELECT query, calls, mean_exec_time AS mean_ms, total_exec_time AS total_ms, rows
        FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY mean_exec_time DESC
        LIMIT ${TOP_STATEMENTS}`),
    );
    return rows.map((row) => ({
      // Already normalized ($1, $2…); literals a client inlined are replaced all the same.
      query: withoutLiterals(row.query),
      calls: Number(row.calls),
      meanMs: Math.round(Number(row.mean_ms) * 100) / 100,
      totalMs: Math.round(Number(row.total_ms)),
      rows: Number(row.rows),
    }));
  } catch {
    return null;
  }
}
