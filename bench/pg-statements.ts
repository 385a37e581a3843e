// BENCH_PG_STATEMENTS=<file>: where a PostgreSQL bench's database spends its time, statement by statement
// (pg_stat_statements, statements inside trigger functions included), and which tables' rows were
// written how (pg_stat_user_tables: inserts, updates, HOT updates, deletes), per message sent. Written to
// <file> as JSON and summarised on stderr. The extension must be loaded by the server
// (shared_preload_libraries); without it the bench runs as before.
import { writeFileSync } from 'node:fs';
import type { DatabaseHandle } from '@server/db/client';

const wanted = () => process.env.BENCH_PG_STATEMENTS;

/** Before the processes connect: the extension, and trigger statements counted (new sessions read it). */
export async function prepareStatementStats(database: DatabaseHandle): Promise<void> {
  if (!wanted()) return;
  await database.executeSql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const { rows } = await database.executeSql('SELECT current_database() AS name');
  const name = (rows[0] as { name: string }).name;
  await database.executeSql(`ALTER DATABASE ${name} SET pg_stat_statements.track = 'all'`);
  // Planning time too (plan_us_per_msg): what a prepared or cached plan would save shows there.
  await database.executeSql(`ALTER DATABASE ${name} SET pg_stat_statements.track_planning = on`);
}

interface TableCounts {
  relname: string;
  ins: number;
  upd: number;
  hot: number;
  del: number;
}

async function tableCounts(database: DatabaseHandle): Promise<Map<string, TableCounts>> {
  const { rows } = await database.executeSql(
    `SELECT relname, n_tup_ins::float8 AS ins, n_tup_upd::float8 AS upd, n_tup_hot_upd::float8 AS hot,
       n_tup_del::float8 AS del FROM pg_stat_user_tables`,
  );
  return new Map((rows as unknown as TableCounts[]).map((r) => [r.relname, r]));
}

/** Just before the send: this database's statement figures back to zero, the table counters noted. */
export async function startStatementStats(database: DatabaseHandle) {
  if (!wanted()) return null;
  await database.executeSql(
    'SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)',
  );
  // pg_stat_user_tables lags by up to a second in another session; this one reads a fresh snapshot.
  await database.executeSql('SELECT pg_stat_clear_snapshot()');
  return { tables: await tableCounts(database) };
}

export async function reportStatementStats(
  database: DatabaseHandle,
  started: Awaited<ReturnType<typeof startStatementStats>>,
  messages: number,
): Promise<void> {
  const file = wanted();
  if (!file || !started) return;
  // The other sessions' counters reach the shared statistics at their next report (about a second).
  await new Promise((r) => setTimeout(r, 1500));
  await database.executeSql('SELECT pg_stat_clear_snapshot()');
  const per = (n: number) => Math.round((n / Math.max(1, messages)) * 100) / 100;
  const { rows } = await database.executeSql(
    `SELECT toplevel, calls::float8 AS calls, total_exec_time AS ms,
       total_plan_time AS plan_ms, plans::float8 AS plans, rows::float8 AS rows,
       wal_bytes::float8 AS wal, wal_fpi::float8 AS fpi, shared_blks_hit::float8 AS hit,
       shared_blks_read::float8 AS read, shared_blks_dirtied::float8 AS dirtied, query
     FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY total_exec_time DESC`,
  );
  type Row = {
    toplevel: boolean;
    calls: number;
    ms: number;
    plan_ms: number;
    plans: number;
    rows: number;
    wal: number;
    fpi: number;
    hit: number;
    read: number;
    dirtied: number;
    query: string;
  };
  const statements = (rows as unknown as Row[]).map((r) => ({
    toplevel: r.toplevel,
    us_per_msg: per(r.ms * 1000),
    calls_per_msg: per(r.calls),
    plan_us_per_msg: per(r.plan_ms * 1000),
    plans_per_msg: per(r.plans),
    rows_per_msg: per(r.rows),
    wal_bytes_per_msg: per(r.wal),
    fpi_per_msg: per(r.fpi),
    blks_per_msg: per(r.hit + r.read),
    read_per_msg: per(r.read),
    dirtied_per_msg: per(r.dirtied),
    mean_us: Math.round((r.ms * 1000) / Math.max(1, r.calls)),
    calls: r.calls,
    query: r.query.replace(/\s+/g, ' ').slice(0, 400),
  }));
  const after = await tableCounts(database);
  const tables = [...after.values()]
    .map((t) => {
      const b = started.tables.get(t.relname);
      return {
        table: t.relname,
        ins_per_msg: per(t.ins - (b?.ins ?? 0)),
        upd_per_msg: per(t.upd - (b?.upd ?? 0)),
        hot_per_msg: per(t.hot - (b?.hot ?? 0)),
        del_per_msg: per(t.del - (b?.del ?? 0)),
      };
    })
    .filter((t) => t.ins_per_msg || t.upd_per_msg || t.del_per_msg)
    .sort(
      (a, b) =>
        b.ins_per_msg + b.upd_per_msg + b.del_per_msg - (a.ins_per_msg + a.upd_per_msg + a.del_per_msg),
    );
  const top = statements.filter((s) => s.toplevel);
  const total = {
    toplevel_us_per_msg: per(top.reduce((n, s) => n + s.us_per_msg * messages, 0)),
    toplevel_plan_us_per_msg: per(top.reduce((n, s) => n + s.plan_us_per_msg * messages, 0)),
    toplevel_wal_bytes_per_msg: per(top.reduce((n, s) => n + s.wal_bytes_per_msg * messages, 0)),
  };
  writeFileSync(file, JSON.stringify({ messages, total, statements, tables }, null, 1));
  process.stderr.write(`pg_stat_statements per message: ${JSON.stringify(total)}\n`);
  for (const s of statements.slice(0, 25)) {
    process.stderr.write(
      `  ${s.toplevel ? 'T' : 'n'} ${s.us_per_msg} µs ${s.plan_us_per_msg} plan µs ${s.calls_per_msg} calls ${s.wal_bytes_per_msg} B wal ${s.blks_per_msg} blks: ${s.query.slice(0, 140)}\n`,
    );
  }
  for (const t of tables.slice(0, 12)) process.stderr.write(`  table ${JSON.stringify(t)}\n`);
}
