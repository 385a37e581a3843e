import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import type { LogSinkStats } from '@server/lib/log-sink';
import {
  LOG_LEVELS,
  type LogLine,
  type LogSearchResult,
  logLevelName,
  type logQuerySchema,
} from '@shared/admin-operations';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';

/*
 * The Logs screen's search over app_logs: newest first, keyset pages on (time, id). Every filter has an
 * index that starts with it (request id, user, job, level) or narrows the time index scan.
 */

type LogQuery = z.output<typeof logQuerySchema>;

interface LogRow {
  id: string | number;
  time: Date | string;
  level: number;
  process: string;
  msg: string;
  request_id: string | null;
  user_id: string | null;
  user_email: string | null;
  method: string | null;
  route: string | null;
  status_code: number | null;
  job: string | null;
  job_id: string | null;
  data: Record<string, unknown> | string | null;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** LIKE pattern for "contains", with the user's % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function searchLogs(options: {
  db: Database;
  query: LogQuery;
  maxRows: number;
  retentionDays: number;
  sink: LogSinkStats;
}): Promise<LogSearchResult> {
  const { db, query } = options;
  const conditions: SQL[] = [];
  if (query.level) conditions.push(sql`l.level >= ${LOG_LEVELS[query.level]}`);
  if (query.from) conditions.push(sql`l.time >= ${query.from}::timestamptz`);
  if (query.to) conditions.push(sql`l.time <= ${query.to}::timestamptz`);
  if (query.requestId) conditions.push(sql`l.request_id = ${query.requestId}`);
  if (query.user) {
    // An email is looked up first, so the log search itself stays on the user index.
    conditions.push(
      query.user.includes('@')
        ? sql`l.user_id IN (SELECT id FROM "user" WHERE lower(email) = lower(${query.user}))`
        : sql`l.user_id = ${query.user}`,
    );
  }
  if (query.route) conditions.push(sql`l.route ILIKE ${containsPattern(query.route)}`);
  if (query.job) conditions.push(sql`l.job = ${query.job}`);
  if (query.q) conditions.push(sql`l.msg ILIKE ${containsPattern(query.q)}`);
  const after = decodeCursor('logs', query.cursor, 2);
  if (after) conditions.push(sql`(l.time, l.id) < (${String(after[0])}::timestamptz, ${Number(after[1])})`);
  const where = conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;

  const rows = rowsOf<LogRow>(
    await db.execute(sql`
      SELECT l.id, l.time, l.level, l.process, l.msg, l.request_id, l.user_id, u.email AS user_email,
        l.method, l.route, l.status_code, l.job, l.job_id, l.data
      FROM (
        SELECT * FROM app_logs l ${where}
        ORDER BY l.time DESC, l.id DESC
        LIMIT ${query.limit + 1}
      ) l
      LEFT JOIN "user" u ON u.id = l.user_id
      ORDER BY l.time DESC, l.id DESC`),
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const [oldest] = rowsOf<{ oldest: Date | string | null }>(
    await db.execute(sql`SELECT min(time) AS oldest FROM app_logs`),
  );
  return {
    generatedAt: now().toISOString(),
    lines: page.map(toLine),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor('logs', [iso(last.time), Number(last.id)]) : null,
    maxRows: options.maxRows,
    retentionDays: options.retentionDays,
    oldestAt: oldest?.oldest ? iso(oldest.oldest) : null,
    sink: options.sink,
  };
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

function toLine(row: LogRow): LogLine {
  return {
    id: String(row.id),
    time: iso(row.time),
    level: Number(row.level),
    levelName: logLevelName(Number(row.level)),
    process: row.process,
    msg: row.msg,
    requestId: row.request_id,
    userId: row.user_id,
    userEmail: row.user_email,
    method: row.method,
    route: row.route,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    job: row.job,
    jobId: row.job_id,
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
  };
}

/**
 * Keeps the table within its bounds: lines older than the retention, then everything below the newest
 * `maxRows` ids (ids only grow, so no count of the table is needed). Deletes in slices so one run never
 * holds a long lock. Safe to run twice.
 */
export async function pruneAppLogs(options: {
  db: Database;
  maxRows: number;
  retentionDays: number;
  sliceSize?: number;
}): Promise<{ expired: number; overCap: number }> {
  const { db } = options;
  const slice = options.sliceSize ?? 10_000;
  const cutoff = new Date(now().getTime() - options.retentionDays * 86_400_000);
  let expired = 0;
  for (;;) {
    const deleted = rowsOf<{ n: number }>(
      await db.execute(sql`
        WITH gone AS (
          DELETE FROM app_logs WHERE id IN (
            SELECT id FROM app_logs WHERE time < ${cutoff.toISOString()}::timestamptz ORDER BY time LIMIT ${slice}
          ) RETURNING 1
        ) SELECT count(*)::int AS n FROM gone`),
    )[0];
    expired += Number(deleted?.n ?? 0);
    if (Number(deleted?.n ?? 0) < slice) break;
  }
  const [top] = rowsOf<{ max: string | number | null }>(
    await db.execute(sql`SELECT max(id) AS max FROM app_logs`),
  );
  let overCap = 0;
  if (top?.max !== null && top?.max !== undefined) {
    const floor = Number(top.max) - options.maxRows;
    for (;;) {
      const deleted = rowsOf<{ n: number }>(
        await db.execute(sql`
          WITH gone AS (
            DELETE FROM app_logs WHERE id IN (
              SELECT id FROM app_logs WHERE id <= ${floor} ORDER BY id LIMIT ${slice}
            ) RETURNING 1
          ) SELECT count(*)::int AS n FROM gone`),
      )[0];
      overCap += Number(deleted?.n ?? 0);
      if (Number(deleted?.n ?? 0) < slice) break;
    }
  }
  return { expired, overCap };
}
