import type { Database } from '../db/client';
import { appLogs } from '../db/schema/index';

/*
 * A pino destination that copies log lines into the app_logs table for the Logs screen.
 * - write() only appends the line to an in-memory queue: logging never waits for the database.
 * - Lines are inserted in multi-row batches, one insert at a time. While the database is slow the queue
 *   fills up to `maxQueued` lines; past that new lines are dropped and counted, so memory stays bounded
 *   and a struggling database is not sent more work. A failed insert drops its batch (also counted).
 * - Lines written before the database is open wait in the queue until attach().
 * The lines arrive already redacted by pino (redact paths, error serializer); keys that name a secret
 * are removed again here, so a new log call that forgets the redact list still stores no secret.
 */

export interface LogSinkStats {
  written: number;
  dropped: number;
  queued: number;
  failedInserts: number;
  lastError: string | null;
}

export interface LogSink {
  /** pino calls this with one JSON line. Never throws, never waits. */
  write(line: string): void;
  /** Starts writing to this database (lines queued before wait for it). */
  attach(db: Database): void;
  /** Writes everything queued now (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
  stats(): LogSinkStats;
}

type AppLogRow = typeof appLogs.$inferInsert;

const REDACTED = '[redacted]';
/** Keys whose values are secrets or users' query data wherever they appear on a line. */
const SECRET_KEY =
  /pass(word|phrase)?$|secret|token|authori[sz]ation|cookie|api[-_]?key|^params$|^parameters$/i;
const MAX_MSG_LENGTH = 2_000;
const MAX_DATA_LENGTH = 8_000;
/** Fields that become columns, or that every line repeats (pino's base). */
const COLUMN_KEYS = new Set(['time', 'level', 'msg', 'reqId', 'userId', 'job', 'jobId', 'pid', 'hostname']);

export function createLogSink(options: {
  process: string;
  maxQueued?: number;
  batchSize?: number;
  flushIntervalMs?: number;
  /** Where the sink reports its own insert failures (never the logger itself: that would loop). */
  reportError?: (message: string) => void;
}): LogSink {
  const maxQueued = options.maxQueued ?? 10_000;
  const batchSize = options.batchSize ?? 500;
  const reportError =
    options.reportError ?? ((message: string) => process.stderr.write(`log table: ${message}\n`));
  const queue: string[] = [];
  let db: Database | null = null;
  let inflight: Promise<void> | null = null;
  /** True from a drain's start to its last line (cleared before its promise settles, unlike `inflight`). */
  let draining = false;
  let scheduled = false;
  let lastReportAt = 0;
  const stats: LogSinkStats = { written: 0, dropped: 0, queued: 0, failedInserts: 0, lastError: null };

  async function insertBatch(lines: string[]): Promise<void> {
    const rows = lines.map((line) => toRow(line, options.process)).filter((r) => r !== null);
    if (rows.length === 0 || !db) return;
    try {
      await db.insert(appLogs).values(rows);
      stats.written += rows.length;
    } catch (error) {
      stats.dropped += rows.length;
      stats.failedInserts++;
      stats.lastError = (error as Error)?.message?.slice(0, 300) ?? String(error);
      // At most one report a minute: a dead database must not flood stderr either.
      if (Date.now() - lastReportAt > 60_000) {
        lastReportAt = Date.now();
        reportError(`${rows.length} lines dropped: ${stats.lastError}`);
      }
    }
  }

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (db && queue.length > 0) await insertBatch(queue.splice(0, batchSize));
    } finally {
      draining = false;
    }
  }

  function flush(): Promise<void> {
    if (!draining) inflight = drain();
    return inflight ?? Promise.resolve();
  }

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1_000);
  timer.unref();

  return {
    write(line) {
      if (queue.length >= maxQueued) {
        stats.dropped++;
        return;
      }
      queue.push(line);
      // A full batch is written on the next turn (a drain under way takes it in its loop).
      if (queue.length >= batchSize && db && !draining && !scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void flush();
        });
      }
    },
    attach(database) {
      db = database;
      void flush();
    },
    async flush() {
      // A drain already running may have started before the newest lines: run once more after it.
      await flush();
      await flush();
    },
    async close() {
      clearInterval(timer);
      await this.flush();
    },
    stats: () => ({ ...stats, queued: queue.length }),
  };
}

/** One pino JSON line as a table row; null for a line that is not JSON (never expected). */
export function toRow(line: string, processName: string): AppLogRow | null {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  const req = asObject(entry.req);
  const res = asObject(entry.res);
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!COLUMN_KEYS.has(key) && key !== 'process') data[key] = scrub(key, value, 0);
  }
  let dataJson: Record<string, unknown> | null = Object.keys(data).length > 0 ? data : null;
  if (dataJson && JSON.stringify(dataJson).length > MAX_DATA_LENGTH) {
    dataJson = { truncated: true, preview: JSON.stringify(dataJson).slice(0, MAX_DATA_LENGTH) };
  }
  return {
    time: new Date(typeof entry.time === 'number' ? entry.time : Date.now()),
    level: typeof entry.level === 'number' ? entry.level : 30,
    process: typeof entry.process === 'string' ? entry.process : processName,
    msg: typeof entry.msg === 'string' ? entry.msg.slice(0, MAX_MSG_LENGTH) : '',
    requestId: text(entry.reqId),
    userId: text(entry.userId) ?? text(res?.userId),
    method: text(req?.method) ?? text(res?.method),
    route: text(req?.url) ?? text(res?.url),
    statusCode: typeof res?.statusCode === 'number' ? res.statusCode : null,
    job: text(entry.job),
    jobId: text(entry.jobId),
    data: dataJson,
  };
}

function scrub(key: string, value: unknown, depth: number): unknown {
  if (SECRET_KEY.test(key)) return REDACTED;
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub('', item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scrub(k, v, depth + 1)]),
  );
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value) return value.slice(0, 500);
  if (typeof value === 'number') return String(value);
  return null;
}
