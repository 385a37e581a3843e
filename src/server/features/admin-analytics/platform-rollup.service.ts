import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import { sql } from 'drizzle-orm';
import { rowsOf } from './sql-rows';

/*
 * Folds new email_events (by id, after the watermark in platform_stats_progress) into the hourly
 * roll-ups the operator's analytics read. Safe to run twice at once: the watermark row is locked for
 * the whole batch, so a second run waits and then starts where the first stopped.
 */

export const ROLLUP_NAME = 'email_events';

/**
 * Events younger than this are left for the next run. Ids are taken when a row is inserted but seen
 * when its transaction commits, so a lower id can still appear for a moment after higher ones; this
 * wait lets those transactions finish before the watermark passes them. The screens count everything
 * after the watermark live, so nothing is missing from them meanwhile.
 */
export const SETTLE_MS = 2 * 60_000;

/** SQL for a sent message's wait bucket: k covers [2^(k/4) − 1, 2^((k+1)/4) − 1) seconds. */
export const LATENCY_BUCKET_SQL = sql.raw(
  `least(127, floor(4 * ln(1 + greatest(0, extract(epoch from e.occurred_at - o.created_at)::float8)) / ln(2)))::int`,
);

/**
 * A row type of platform_hourly_events beside the event types: the bounces a receiving server gave during
 * SMTP (a subset of 'bounced'). Those messages were handed over but have no 'sent' event, so the alert
 * rules add them to the sends a bounce rate is taken over. Screens read the types they name, so this one
 * adds to no other figure.
 */
export const SMTP_REFUSED = 'smtp_refused';

/** Whether an email_events row is a bounce given during SMTP (delivery-outcomes.ts writes those). */
export const SMTP_REFUSED_SQL = sql.raw(`(type = 'bounced' AND metadata->>'during' = 'smtp')`);

/** The outcomes platform_account_hourly counts per sender account (the Email Processing monitor's). */
export const ACCOUNT_HOURLY_TYPES = ['sent', 'bounced', 'complained', 'failed'] as const;
const ACCOUNT_HOURLY_TYPES_SQL = sql.raw(ACCOUNT_HOURLY_TYPES.map((type) => `'${type}'`).join(', '));
/** platform_account_hourly keeps this many days (the monitor reads the last 7). */
export const ACCOUNT_HOURLY_KEEP_DAYS = 8;

/** How far the roll-up has read, as a reader sees it. */
export interface RollupProgress {
  /** The last email_events id folded in: the live tail is the events after it. */
  lastEventId: number;
  updatedAt: Date | null;
}

/**
 * Runs `read` in one snapshot (a read-only REPEATABLE READ transaction) that starts with the roll-up's
 * progress. Readers add the events after the watermark to the roll-up's rows; read in separate snapshots,
 * a roll-up committed between their statements would count the events it folded twice (in its rows, and
 * in the tail read with the older watermark), and a bounce-rate alert could fire on the inflated figure.
 */
export async function withRollupSnapshot<T>(
  db: Database,
  read: (tx: Database, progress: RollupProgress) => Promise<T>,
): Promise<T> {
  return db.transaction(
    async (trx) => {
      const tx = trx as unknown as Database;
      const [row] = rowsOf<{ last_event_id: string | number; updated_at: Date | string | null }>(
        await tx.execute(
          sql`SELECT last_event_id, updated_at FROM platform_stats_progress WHERE name = ${ROLLUP_NAME}`,
        ),
      );
      return read(tx, {
        lastEventId: Number(row?.last_event_id ?? 0),
        updatedAt: row?.updated_at ? new Date(row.updated_at) : null,
      });
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export interface RollupResult {
  events: number;
  lastEventId: number;
  batches: number;
}

export async function rollUpPlatformStats(options: {
  db: Database;
  batchSize?: number;
  /** Stop after this many batches (a backlog is finished by the next runs). */
  maxBatches?: number;
}): Promise<RollupResult> {
  const batchSize = options.batchSize ?? 50_000;
  const maxBatches = options.maxBatches ?? 20;
  const result: RollupResult = { events: 0, lastEventId: 0, batches: 0 };
  await options.db.execute(
    sql`INSERT INTO platform_stats_progress (name) VALUES (${ROLLUP_NAME}) ON CONFLICT (name) DO NOTHING`,
  );
  while (result.batches < maxBatches) {
    const folded = await foldBatch(options.db, batchSize);
    result.batches += 1;
    result.events += folded.events;
    result.lastEventId = folded.lastEventId;
    // A short batch means the backlog is done; a batch cut short by young events waits for them.
    if (folded.read < batchSize || folded.events < folded.read) break;
  }
  // The per-account hours the monitor no longer reads (through the hour index: a few rows a run).
  const keepFrom = new Date(now().getTime() - ACCOUNT_HOURLY_KEEP_DAYS * 86_400_000).toISOString();
  await options.db.execute(sql`DELETE FROM platform_account_hourly WHERE hour < ${keepFrom}::timestamptz`);
  return result;
}

async function foldBatch(
  db: Database,
  batchSize: number,
): Promise<{ events: number; read: number; lastEventId: number }> {
  return db.transaction(async (tx) => {
    const [progress] = rowsOf<{ last_event_id: string | number }>(
      await tx.execute(
        sql`SELECT last_event_id FROM platform_stats_progress WHERE name = ${ROLLUP_NAME} FOR UPDATE`,
      ),
    );
    const watermark = Number(progress?.last_event_id ?? 0);
    const settleBefore = new Date(now().getTime() - SETTLE_MS).toISOString();
    const [row] = rowsOf<{ last_id: string | number | null; events: number; read: number }>(
      await tx.execute(sql`
        WITH batch AS (
          SELECT id, user_id, type, machine, occurred_at, outbox_message_id, sender_account_id, campaign_id,
            ${SMTP_REFUSED_SQL} AS smtp_refused
          FROM email_events WHERE id > ${watermark} ORDER BY id LIMIT ${batchSize}
        ), fresh AS (
          SELECT min(id) AS id FROM batch WHERE occurred_at > ${settleBefore}::timestamptz
        ), e AS (
          SELECT b.* FROM batch b, fresh WHERE fresh.id IS NULL OR b.id < fresh.id
        ), hourly AS (
          INSERT INTO platform_hourly_events (hour, type, machine, count)
          SELECT date_trunc('hour', e.occurred_at), e.type, e.machine, count(*) FROM e GROUP BY 1, 2, 3
          UNION ALL
          SELECT date_trunc('hour', e.occurred_at), ${SMTP_REFUSED}::text, e.machine, count(*) FROM e
          WHERE e.smtp_refused GROUP BY 1, 3
          ON CONFLICT (hour, type, machine) DO UPDATE SET count = platform_hourly_events.count + excluded.count
          RETURNING 1
        ), latency AS (
          INSERT INTO platform_send_latency (hour, bucket, count)
          SELECT date_trunc('hour', e.occurred_at), ${LATENCY_BUCKET_SQL}, count(*)
          FROM e JOIN outbox_all o ON o.id = e.outbox_message_id
          WHERE e.type = 'sent'
          GROUP BY 1, 2
          ON CONFLICT (hour, bucket) DO UPDATE SET count = platform_send_latency.count + excluded.count
          RETURNING 1
        ), daily AS (
          INSERT INTO platform_user_daily (day, user_id, sent, replied)
          SELECT (e.occurred_at AT TIME ZONE 'UTC')::date, e.user_id,
            count(*) FILTER (WHERE e.type = 'sent'), count(*) FILTER (WHERE e.type = 'replied')
          FROM e WHERE e.type IN ('sent', 'replied')
          GROUP BY 1, 2
          ON CONFLICT (day, user_id) DO UPDATE SET sent = platform_user_daily.sent + excluded.sent,
            replied = platform_user_daily.replied + excluded.replied
          RETURNING 1
        ), totals AS (
          INSERT INTO platform_user_totals AS t (user_id, events, first_sent_day)
          SELECT e.user_id, count(*), min((e.occurred_at AT TIME ZONE 'UTC')::date) FILTER (WHERE e.type = 'sent')
          FROM e GROUP BY 1
          ON CONFLICT (user_id) DO UPDATE SET events = t.events + excluded.events,
            first_sent_day = least(t.first_sent_day, excluded.first_sent_day)
          RETURNING 1
        ), account_hourly AS (
          -- The Email Processing monitor's per-account outcomes (a statement in WITH runs whether or
          -- not the query reads it).
          INSERT INTO platform_account_hourly (sender_account_id, hour, type, count)
          SELECT e.sender_account_id, date_trunc('hour', e.occurred_at, 'UTC'), e.type, count(*)
          FROM e
          WHERE e.sender_account_id IS NOT NULL AND e.campaign_id IS NOT NULL
            AND e.type IN (${ACCOUNT_HOURLY_TYPES_SQL})
          GROUP BY 1, 2, 3
          ON CONFLICT (sender_account_id, hour, type)
            DO UPDATE SET count = platform_account_hourly.count + excluded.count
          RETURNING 1
        )
        SELECT (SELECT max(id) FROM e) AS last_id, (SELECT count(*) FROM e)::int AS events,
          (SELECT count(*) FROM batch)::int AS read,
          (SELECT count(*) FROM hourly)::int + (SELECT count(*) FROM latency)::int
            + (SELECT count(*) FROM daily)::int + (SELECT count(*) FROM totals)::int AS touched`),
    );
    const lastEventId = row?.last_id === null || row?.last_id === undefined ? watermark : Number(row.last_id);
    await tx.execute(sql`
      UPDATE platform_stats_progress SET last_event_id = ${lastEventId}, updated_at = ${now().toISOString()}::timestamptz
      WHERE name = ${ROLLUP_NAME}`);
    return { events: Number(row?.events ?? 0), read: Number(row?.read ?? 0), lastEventId };
  });
}
