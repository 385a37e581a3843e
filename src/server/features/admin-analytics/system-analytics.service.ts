import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import type { SystemAnalytics, SystemBucket, SystemRange } from '@shared/admin-analytics';
import { OUTBOX_COUNT_CAP } from '@shared/admin-monitors';
import { sql } from 'drizzle-orm';
import { LATENCY_BUCKET_SQL, withRollupSnapshot } from './platform-rollup.service';
import { iso, rowsOf } from './sql-rows';

/*
 * System Analytics: sends, errors, tracking hits and queue latency from the hourly roll-ups plus the
 * events written since the last roll-up (a primary-key range of email_events), imports and sessions
 * from their own tables. Every query is bounded by time or by an index; none scans the event log.
 */

const HOUR_MS = 3_600_000;
const RANGES: Record<SystemRange, { bucketMs: number; buckets: number }> = {
  '24h': { bucketMs: HOUR_MS, buckets: 24 },
  '7d': { bucketMs: 6 * HOUR_MS, buckets: 28 },
  '30d': { bucketMs: 24 * HOUR_MS, buckets: 30 },
};
const COUNTED_TYPES = ['sent', 'failed', 'deferred', 'bounced', 'opened', 'clicked'] as const;
const COUNTED_TYPES_SQL = sql.raw(COUNTED_TYPES.map((type) => `'${type}'`).join(', '));
const ONLINE_MS = 15 * 60_000;

/** The range's first bucket start: buckets are aligned to UTC hours, six-hour blocks or days. */
export function rangeStart(range: SystemRange, at: Date): Date {
  const { bucketMs, buckets } = RANGES[range];
  const aligned = Math.floor(at.getTime() / bucketMs) * bucketMs;
  return new Date(aligned - (buckets - 1) * bucketMs);
}

/** The wait (seconds) a latency bucket stands for: its geometric middle. */
export function latencyOfBucket(bucket: number): number {
  return Math.round((2 ** ((bucket + 0.5) / 4) - 1) * 10) / 10;
}

/** The p-th percentile (0–1) of a latency histogram (bucket → count); null when it is empty. */
export function percentileOf(histogram: Map<number, number>, p: number): number | null {
  const total = [...histogram.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= rank) return latencyOfBucket(bucket);
  }
  return null;
}

function rate(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

type HourlyRow = { slot: number; type: string; machine: boolean; count: string | number };
type LatencyRow = { slot: number; bucket: number; count: string | number };

export async function getSystemAnalytics(options: {
  db: Database;
  range: SystemRange;
  /** The due count stops past this (tests set a small one). */
  countCap?: number;
}): Promise<SystemAnalytics> {
  const cap = options.countCap ?? OUTBOX_COUNT_CAP;
  const { db, range } = options;
  const at = now();
  const { bucketMs, buckets } = RANGES[range];
  const from = rangeStart(range, at);
  const fromIso = from.toISOString();
  const nowIso = at.toISOString();

  // One snapshot for the watermark and every read that adds the tail after it (withRollupSnapshot).
  return withRollupSnapshot(db, async (db, progress) => {
    const watermark = progress.lastEventId;

    // Rows are summed per chart bucket here, not per hour: 30 days of hourly latency histograms are tens
    // of thousands of rows, a few hundred once folded into days.
    const slot = (column: string) =>
      sql.raw(`floor(extract(epoch from ${column} - '${fromIso}'::timestamptz) / ${bucketMs / 1000})::int`);
    const [hourly, tail, latency, tailLatency, importRows, activity, outbox, jobs] = await Promise.all([
      db.execute(sql`
      SELECT ${slot('hour')} AS slot, type, machine, sum(count)::bigint AS count FROM platform_hourly_events
      WHERE hour >= ${fromIso}::timestamptz AND type IN (${COUNTED_TYPES_SQL})
      GROUP BY 1, 2, 3`),
      db.execute(sql`
      SELECT ${slot('occurred_at')} AS slot, type, machine, count(*) AS count
      FROM email_events
      WHERE id > ${watermark} AND occurred_at >= ${fromIso}::timestamptz AND type IN (${COUNTED_TYPES_SQL})
      GROUP BY 1, 2, 3`),
      db.execute(sql`
      SELECT ${slot('hour')} AS slot, bucket, sum(count)::bigint AS count FROM platform_send_latency
      WHERE hour >= ${fromIso}::timestamptz GROUP BY 1, 2`),
      db.execute(sql`
      SELECT ${slot('e.occurred_at')} AS slot, ${LATENCY_BUCKET_SQL} AS bucket, count(*) AS count
      FROM email_events e JOIN outbox_all o ON o.id = e.outbox_message_id
      WHERE e.id > ${watermark} AND e.type = 'sent' AND e.occurred_at >= ${fromIso}::timestamptz
      GROUP BY 1, 2`),
      // Imports are one row per upload: a small table, read by start time.
      db.execute(sql`
      SELECT coalesce(started_at, created_at) AS at, processed_rows FROM imports
      WHERE coalesce(started_at, created_at) >= ${fromIso}::timestamptz`),
      db.execute(sql`
      SELECT count(*) FILTER (WHERE expires_at > ${nowIso}::timestamptz)::int AS active_sessions,
        count(*) FILTER (WHERE expires_at > ${nowIso}::timestamptz
          AND updated_at > ${new Date(at.getTime() - ONLINE_MS).toISOString()}::timestamptz)::int AS online,
        count(DISTINCT user_id) FILTER (WHERE updated_at >= ${fromIso}::timestamptz
          OR created_at >= ${fromIso}::timestamptz)::int AS active_users
      FROM session`),
      // Through the dispatcher's due index (queued rows by send_after); the count stops past the cap
      // (shown as "100,000+"): a 1,000,000-recipient newsletter due is not a million index entries a poll.
      db.execute(sql`
      SELECT (SELECT count(*)::int FROM (SELECT 1 FROM outbox_messages
          WHERE state = 'queued' AND NOT held AND send_after <= ${nowIso}::timestamptz LIMIT ${cap + 1}) capped) AS due,
        (SELECT min(send_after) FROM outbox_messages
          WHERE state = 'queued' AND NOT held AND send_after <= ${nowIso}::timestamptz) AS oldest`),
      db.execute(sql`
      SELECT count(*)::int AS waiting FROM pgboss.job
      WHERE state IN ('created', 'retry') AND start_after <= now()`),
    ]);

    const series: SystemBucket[] = Array.from({ length: buckets }, (_, index) => ({
      at: new Date(from.getTime() + index * bucketMs).toISOString(),
      sent: 0,
      failed: 0,
      deferred: 0,
      bounced: 0,
      opened: 0,
      openedMachine: 0,
      clicked: 0,
      clickedMachine: 0,
      latencyP50: null,
      latencyP95: null,
      importRuns: 0,
      importRows: 0,
    }));
    const bucketOf = (value: Date | string): SystemBucket | undefined =>
      series[Math.floor((new Date(value).getTime() - from.getTime()) / bucketMs)];

    for (const row of [...rowsOf<HourlyRow>(hourly), ...rowsOf<HourlyRow>(tail)]) {
      const bucket = series[Number(row.slot)];
      if (!bucket) continue;
      const count = Number(row.count);
      switch (row.type) {
        case 'opened':
          bucket.opened += count;
          if (row.machine) bucket.openedMachine += count;
          break;
        case 'clicked':
          bucket.clicked += count;
          if (row.machine) bucket.clickedMachine += count;
          break;
        case 'sent':
        case 'failed':
        case 'deferred':
        case 'bounced':
          bucket[row.type] += count;
          break;
      }
    }

    const rangeHistogram = new Map<number, number>();
    const bucketHistograms = series.map(() => new Map<number, number>());
    for (const row of [...rowsOf<LatencyRow>(latency), ...rowsOf<LatencyRow>(tailLatency)]) {
      const histogram = bucketHistograms[Number(row.slot)];
      if (!histogram) continue;
      const count = Number(row.count);
      const key = Number(row.bucket);
      histogram.set(key, (histogram.get(key) ?? 0) + count);
      rangeHistogram.set(key, (rangeHistogram.get(key) ?? 0) + count);
    }
    series.forEach((bucket, index) => {
      const histogram = bucketHistograms[index] ?? new Map<number, number>();
      bucket.latencyP50 = percentileOf(histogram, 0.5);
      bucket.latencyP95 = percentileOf(histogram, 0.95);
    });

    for (const row of rowsOf<{ at: Date | string; processed_rows: number }>(importRows)) {
      const bucket = bucketOf(row.at);
      if (!bucket) continue;
      bucket.importRuns += 1;
      bucket.importRows += Number(row.processed_rows);
    }

    const sum = (key: keyof SystemBucket) => series.reduce((total, b) => total + Number(b[key] ?? 0), 0);
    const sent = sum('sent');
    const failed = sum('failed');
    const bounced = sum('bounced');
    const deferred = sum('deferred');
    const activityRow = rowsOf<{ active_sessions: number; online: number; active_users: number }>(
      activity,
    )[0];
    const outboxRow = rowsOf<{ due: number; oldest: Date | string | null }>(outbox)[0];

    return {
      generatedAt: nowIso,
      range,
      bucketSeconds: bucketMs / 1000,
      from: fromIso,
      rolledUpThrough: watermark,
      rolledUpAt: iso(progress.updatedAt),
      totals: {
        sent,
        failed,
        deferred,
        bounced,
        opened: sum('opened'),
        openedMachine: sum('openedMachine'),
        clicked: sum('clicked'),
        clickedMachine: sum('clickedMachine'),
        errorRate: rate(failed + bounced, sent + failed + bounced),
        deferralRate: rate(deferred, sent + failed + bounced + deferred),
        latencyP50: percentileOf(rangeHistogram, 0.5),
        latencyP95: percentileOf(rangeHistogram, 0.95),
        importRuns: sum('importRuns'),
        importRows: sum('importRows'),
      },
      series,
      activity: {
        activeSessions: Number(activityRow?.active_sessions ?? 0),
        activeUsers: Number(activityRow?.active_users ?? 0),
        onlineSessions: Number(activityRow?.online ?? 0),
      },
      queue: {
        outboxDue: Number(outboxRow?.due ?? 0),
        oldestDueAt: iso(outboxRow?.oldest),
        jobsWaiting: Number(rowsOf<{ waiting: number }>(jobs)[0]?.waiting ?? 0),
      },
    };
  });
}
