import type { Database } from '@server/db/client';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { decodeCursor, encodeCursor, iso, rowsOf } from '@server/lib/list-cursor';
import type {
  EmailQueueStatus,
  FailedJob,
  FailedJobList,
  FailedMessage,
  FailedMessageList,
  OutboxSummary,
  ReasonCount,
} from '@shared/admin-monitors';
import { OUTBOX_COUNT_CAP, RETRIED_BY_ADMIN } from '@shared/admin-monitors';
import { type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { wakeDispatchers } from '../sending/outbox.service';
import { ARCHIVE_AFTER_DAYS } from '../sending/outbox-archive.service';

/*
 * The Email Queue monitor: pg-boss's own tables (schema pgboss) and the outbox, read live. Retry and
 * cancel of jobs go through pg-boss's API; of messages, through guarded updates of the outbox row.
 */

/** Campaign states in which a queued message goes (now, or once the campaign runs again). */
const RUNNING_CAMPAIGN_STATUSES = ['active', 'paused', 'scheduled'];
const RUNNING_CAMPAIGN = sql`('active', 'paused', 'scheduled')`;

const TOP_REASONS = 10;
const REASON_LENGTH = 300;
/** Queued rows whose reasons are grouped (the ones due last). */
export const DEFERRED_SAMPLE = 5_000;

type QueueRow = {
  name: string;
  policy: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed_hour: number;
  completed_day: number;
  oldest_waiting: Date | string | null;
};

function topReasons(counts: Map<string, number>): ReasonCount[] {
  return [...counts.entries()]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
    .slice(0, TOP_REASONS);
}

/** count(*) of a query's rows, reading at most cap + 1 of them. */
function cappedCount(rows: SQL, cap: number): SQL {
  return sql`(SELECT count(*)::int FROM (${rows} LIMIT ${cap + 1}) capped)`;
}

/** Outbox rows in a state, campaign by campaign through (campaign_id, state): a rare state costs a probe per campaign. */
function settledCount(state: string, cap: number): SQL {
  return cappedCount(
    sql`SELECT 1 FROM campaigns c
      CROSS JOIN LATERAL (SELECT 1 FROM outbox_messages o WHERE o.campaign_id = c.id AND o.state = ${state}) m`,
    cap,
  );
}

export async function getEmailQueueStatus(options: {
  db: Database;
  /** Counts stop past this (tests set a small one). */
  countCap?: number;
}): Promise<EmailQueueStatus> {
  const at = now();
  const cap = options.countCap ?? OUTBOX_COUNT_CAP;
  // One pass over the job table: every queue pg-boss knows, with what its jobs are doing. Completed and
  // cancelled jobs older than a day are left out by the join. pg-boss has no index that serves the
  // finished states, so this reads the whole table; pg-boss deletes finished jobs after their queue's
  // deletion_seconds (7 days by default), which bounds it: ~210 ms at 1,200,000 jobs on PostgreSQL (a
  // week of dispatch-outbox wake-ups at two a second, the worst case), the failed-jobs page ~60 ms.
  const queues = rowsOf<QueueRow>(
    await options.db.execute(sql`
      SELECT q.name, q.policy,
        count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())::int AS waiting,
        count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
        count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after > now())::int AS delayed,
        count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed,
        count(j.id) FILTER (WHERE j.state = 'completed' AND j.completed_on > now() - interval '1 hour')::int
          AS completed_hour,
        count(j.id) FILTER (WHERE j.state = 'completed')::int AS completed_day,
        min(j.start_after) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())
          AS oldest_waiting
      FROM pgboss.queue q
      LEFT JOIN pgboss.job j ON j.name = q.name
        AND (j.state IN ('created', 'retry', 'active', 'failed')
             OR (j.state = 'completed' AND j.completed_on > now() - interval '1 day'))
      WHERE left(q.name, 8) <> '__pgboss'
      GROUP BY q.name, q.policy
      ORDER BY q.name`),
  );

  // The outbox by state, each part through an index, never a scan of the table (it holds every
  // message's body): the settled states campaign by campaign through (campaign_id, state), queued rows
  // by the due index and paused campaigns' held ones by theirs, each count stopping past the cap
  // (OUTBOX_COUNT_CAP, shown as "100,000+"), so a poll's cost does not grow with the week of sends the
  // outbox holds; rows in flight by the lease index, failed rows campaign by campaign. PostgreSQL,
  // 490,000 settled and 200,000 queued rows: settled 90 -> 32 ms, queued 35 -> 18 ms, then flat however
  // many rows there are.
  const stamp = at.toISOString();
  const [settled, queued, sending, queuedReasons, failed] = await Promise.all([
    options.db.execute(sql`
      SELECT ${settledCount('sent', cap)} AS sent, ${settledCount('bounced', cap)} AS bounced,
        ${settledCount('suppressed', cap)} AS suppressed, ${settledCount('cancelled', cap)} AS cancelled`),
    options.db.execute(sql`
      SELECT least(${cap + 1}, q.waiting + q.held)::int AS queued, q.held, q.deferred FROM (SELECT
        ${cappedCount(sql`SELECT 1 FROM outbox_messages WHERE state = 'queued' AND NOT held`, cap)} AS waiting,
        ${cappedCount(sql`SELECT 1 FROM outbox_messages WHERE held AND state = 'queued'`, cap)} AS held,
        ${cappedCount(
          sql`SELECT 1 FROM outbox_messages WHERE state = 'queued' AND NOT held AND send_after > ${stamp}::timestamptz`,
          cap,
        )} AS deferred) q`),
    options.db.execute(sql`
      SELECT phase, count(*)::int AS total FROM outbox_messages WHERE state = 'sending' GROUP BY phase`),
    // Reasons are read from the queued rows due last (a message put back waits behind the others), a
    // bounded sample: reading the reason of every queued row means visiting each one's page.
    options.db.execute(sql`
      SELECT left(last_error, ${REASON_LENGTH}) AS reason, count(*)::int AS total
      FROM (
        SELECT last_error FROM outbox_messages WHERE state = 'queued' AND NOT held
        ORDER BY send_after DESC LIMIT ${DEFERRED_SAMPLE}
      ) s
      WHERE last_error IS NOT NULL
      GROUP BY 1`),
    options.db.execute(sql`
      SELECT left(f.last_error, ${REASON_LENGTH}) AS reason, count(*)::int AS total
      FROM campaigns c
      CROSS JOIN LATERAL (
        SELECT o.last_error FROM outbox_messages o WHERE o.campaign_id = c.id AND o.state = 'failed'
      ) f
      GROUP BY 1`),
  ]);
  const settledRow = rowsOf<Record<'sent' | 'bounced' | 'suppressed' | 'cancelled', number>>(settled)[0];
  const queuedRow = rowsOf<{ queued: number; deferred: number; held: number }>(queued)[0];
  const outbox: OutboxSummary = {
    queued: Number(queuedRow?.queued ?? 0),
    queuedDeferred: Number(queuedRow?.deferred ?? 0),
    queuedHeld: Number(queuedRow?.held ?? 0),
    claimed: 0,
    allocated: 0,
    delivering: 0,
    sent: Number(settledRow?.sent ?? 0),
    failed: 0,
    bounced: Number(settledRow?.bounced ?? 0),
    suppressed: Number(settledRow?.suppressed ?? 0),
    cancelled: Number(settledRow?.cancelled ?? 0),
  };
  for (const row of rowsOf<{ phase: string | null; total: number }>(sending)) {
    const phase = row.phase === 'allocated' || row.phase === 'delivering' ? row.phase : 'claimed';
    outbox[phase] += Number(row.total);
  }
  const deferredReasons = new Map<string, number>();
  for (const row of rowsOf<{ reason: string; total: number }>(queuedReasons)) {
    deferredReasons.set(row.reason, Number(row.total));
  }
  const failedReasons = new Map<string, number>();
  for (const row of rowsOf<{ reason: string | null; total: number }>(failed)) {
    const reason = row.reason ?? 'No reason recorded';
    failedReasons.set(reason, (failedReasons.get(reason) ?? 0) + Number(row.total));
    outbox.failed += Number(row.total);
  }

  return {
    generatedAt: at.toISOString(),
    queues: queues.map((row) => ({
      name: row.name,
      policy: row.policy,
      waiting: Number(row.waiting),
      active: Number(row.active),
      delayed: Number(row.delayed),
      failed: Number(row.failed),
      completedLastHour: Number(row.completed_hour),
      completedLastDay: Number(row.completed_day),
      oldestWaitingAt: iso(row.oldest_waiting),
    })),
    outbox,
    deferredReasons: topReasons(deferredReasons),
    deferredReasonsSample: DEFERRED_SAMPLE,
    failedReasons: topReasons(failedReasons),
  };
}

function jobError(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  if (typeof output === 'object') {
    const message = (output as { message?: unknown }).message;
    if (typeof message === 'string') return message.slice(0, 1000);
  }
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  return text.slice(0, 1000);
}

/** Jobs that failed (retries used up) or failed an attempt and wait for the next, newest first. */
export async function listFailedJobs(options: {
  db: Database;
  cursor?: string;
  limit: number;
}): Promise<FailedJobList> {
  const after = decodeCursor(options.cursor);
  const keyset = after ? sql`AND (at, id) < (${after.key}::timestamptz, ${after.id}::uuid)` : sql``;
  const rows = rowsOf<{
    id: string;
    name: string;
    state: 'failed' | 'retry';
    output: unknown;
    retry_count: number;
    at: Date | string;
  }>(
    await options.db.execute(sql`
      SELECT * FROM (
        SELECT id, name, state::text AS state, output, retry_count,
          coalesce(completed_on, started_on, created_on) AS at
        FROM pgboss.job
        WHERE state IN ('failed', 'retry')
      ) j
      WHERE true ${keyset}
      ORDER BY at DESC, id DESC
      LIMIT ${options.limit + 1}`),
  );
  const page = rows.slice(0, options.limit);
  const jobs: FailedJob[] = page.map((row) => ({
    id: row.id,
    name: row.name,
    state: row.state,
    error: jobError(row.output),
    retryCount: Number(row.retry_count),
    at: iso(row.at)!,
  }));
  const last = jobs.at(-1);
  return { jobs, nextCursor: rows.length > options.limit && last ? encodeCursor(last.at, last.id) : null };
}

/**
 * Failed outbox messages, the newest failure first. Walked campaign by campaign through the
 * (campaign_id, state) index, so the outbox's sent rows are never read.
 */
export async function listFailedMessages(options: {
  db: Database;
  cursor?: string;
  limit: number;
}): Promise<FailedMessageList> {
  const after = decodeCursor(options.cursor);
  const keyset = after
    ? sql`AND (o.updated_at, o.id) < (${after.key}::timestamptz, ${after.id}::uuid)`
    : sql``;
  const failedOf = (table: SQL, archived: boolean) => sql`
    SELECT o.id, o.user_id, o.campaign_id, o.to_email, o.last_error, o.attempts, o.updated_at,
      ${sql.raw(String(archived))} AS archived
    FROM ${table} o
    WHERE o.campaign_id = c.id AND o.state = 'failed' ${keyset}
    ORDER BY o.updated_at DESC, o.id DESC
    LIMIT ${options.limit + 1}`;
  const rows = rowsOf<{
    id: string;
    user_id: string;
    user_email: string;
    campaign_id: string;
    campaign_name: string;
    campaign_status: string;
    to_email: string;
    last_error: string | null;
    attempts: number;
    updated_at: Date | string;
    archived: boolean;
  }>(
    await options.db.execute(sql`
      SELECT f.*, u.email AS user_email, c.name AS campaign_name, c.status AS campaign_status
      FROM campaigns c
      CROSS JOIN LATERAL (
        (${failedOf(sql`outbox_messages`, false)})
        UNION ALL
        -- Failed over a week ago: archived (outbox-archive.service.ts), listed, no longer retried.
        (${failedOf(sql`outbox_archive`, true)})
      ) f
      JOIN "user" u ON u.id = f.user_id
      ORDER BY f.updated_at DESC, f.id DESC
      LIMIT ${options.limit + 1}`),
  );
  const page = rows.slice(0, options.limit);
  const messages: FailedMessage[] = page.map((row) => ({
    id: row.id,
    userId: row.user_id,
    userEmail: row.user_email,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    campaignStatus: row.campaign_status,
    canRetry: !row.archived && RUNNING_CAMPAIGN_STATUSES.includes(row.campaign_status),
    archived: row.archived,
    toEmail: row.to_email,
    reason: row.last_error,
    attempts: Number(row.attempts),
    at: iso(row.updated_at)!,
  }));
  const last = messages.at(-1);
  return {
    messages,
    nextCursor: rows.length > options.limit && last ? encodeCursor(last.at, last.id) : null,
  };
}

async function jobState(db: Database, name: string, id: string): Promise<string> {
  const [row] = rowsOf<{ state: string }>(
    await db.execute(
      sql`SELECT state::text AS state FROM pgboss.job WHERE name = ${name} AND id = ${id}::uuid`,
    ),
  );
  if (!row) throw notFound('Job not found');
  return row.state;
}

/** A failed job runs again (pg-boss gives it one more attempt). */
export async function retryJob(options: {
  db: Database;
  queue: Queue;
  actor: AuditActor;
  name: string;
  id: string;
}): Promise<void> {
  const state = await jobState(options.db, options.name, options.id);
  if (state !== 'failed')
    throw new AppError('conflict', `Only a failed job can be retried; this one is ${state}.`);
  await options.queue.retry(options.name, options.id);
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'job.retried',
    targetType: 'job',
    targetId: options.id,
    details: { name: options.name },
  });
}

/** A job that has not finished (waiting, waiting for its next attempt, or running) is cancelled. */
export async function cancelJob(options: {
  db: Database;
  queue: Queue;
  actor: AuditActor;
  name: string;
  id: string;
}): Promise<void> {
  const state = await jobState(options.db, options.name, options.id);
  if (!['created', 'retry', 'active'].includes(state)) {
    throw new AppError(
      'conflict',
      `Only a job that has not finished can be cancelled; this one is ${state}.`,
    );
  }
  await options.queue.cancel(options.name, options.id);
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'job.cancelled',
    targetType: 'job',
    targetId: options.id,
    details: { name: options.name },
  });
}

async function messageState(db: Database, id: string): Promise<{ state: string; campaignStatus: string }> {
  const [row] = rowsOf<{ state: string; campaign_status: string }>(
    await db.execute(sql`
      SELECT o.state, c.status AS campaign_status
      FROM outbox_messages o JOIN campaigns c ON c.id = o.campaign_id
      WHERE o.id = ${id}::uuid`),
  );
  if (row) return { state: row.state, campaignStatus: row.campaign_status };
  const [archived] = rowsOf<{ state: string }>(
    await db.execute(sql`SELECT state FROM outbox_archive WHERE id = ${id}::uuid`),
  );
  if (!archived) throw notFound('Message not found');
  throw new AppError(
    'conflict',
    `This message finished over ${ARCHIVE_AFTER_DAYS} days ago and is archived (${archived.state}); it can no longer be changed.`,
  );
}

/** A failed message goes back to the queue as new: due now, its attempts counted from zero. */
export async function retryMessage(options: {
  db: Database;
  queue: Queue | null;
  dispatchConcurrency: number;
  actor: AuditActor;
  id: string;
}): Promise<void> {
  const at = now().toISOString();
  const updated = rowsOf<{ id: string; user_id: string; last_error: string | null }>(
    await options.db.execute(sql`
      UPDATE outbox_messages o
      SET state = 'queued', phase = NULL, attempts = 0, send_after = ${at}::timestamptz,
        lease_owner = NULL, lease_until = NULL, last_error = ${RETRIED_BY_ADMIN},
        updated_at = ${at}::timestamptz
      FROM outbox_messages prev
      WHERE o.id = ${options.id}::uuid AND prev.id = o.id AND o.state = 'failed'
        AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = o.campaign_id AND c.status IN ${RUNNING_CAMPAIGN})
      RETURNING o.id, o.user_id, prev.last_error`),
  );
  const row = updated[0];
  if (!row) {
    const { state, campaignStatus } = await messageState(options.db, options.id);
    if (state !== 'failed') {
      throw new AppError('conflict', `Only a failed message can be retried; this one is ${state}.`);
    }
    // The dispatcher sends only for a running campaign, and a finished one has ended its contacts'
    // sequences: a message queued there would wait for ever (or be cancelled the moment it is judged).
    throw new AppError(
      'conflict',
      `Its campaign is ${campaignStatus}, so the message cannot be sent again. Cancel it instead.`,
    );
  }
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'outbox_message.retried',
    targetType: 'outbox_message',
    targetId: options.id,
    details: { userId: row.user_id, previousError: row.last_error },
  });
  if (options.queue)
    await wakeDispatchers({ queue: options.queue, parallelism: options.dispatchConcurrency });
}

/** A failed or still queued message will not be sent. */
export async function cancelMessage(options: { db: Database; actor: AuditActor; id: string }): Promise<void> {
  const at = now().toISOString();
  const updated = rowsOf<{ id: string; user_id: string; state: string }>(
    await options.db.execute(sql`
      UPDATE outbox_messages o
      SET state = 'cancelled', phase = NULL, lease_owner = NULL, lease_until = NULL,
        updated_at = ${at}::timestamptz
      FROM outbox_messages prev
      WHERE o.id = ${options.id}::uuid AND prev.id = o.id AND o.state IN ('failed', 'queued')
      RETURNING o.id, o.user_id, prev.state`),
  );
  const row = updated[0];
  if (!row) {
    const { state } = await messageState(options.db, options.id);
    throw new AppError('conflict', `Only a failed or queued message can be cancelled; this one is ${state}.`);
  }
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'outbox_message.cancelled',
    targetType: 'outbox_message',
    targetId: options.id,
    details: { userId: row.user_id, previousState: row.state },
  });
}
