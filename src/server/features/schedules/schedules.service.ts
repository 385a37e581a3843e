import type { Database } from '@server/db/client';
import { pausedSchedules } from '@server/db/schema/index';
import type { AnyJobDefinition } from '@server/jobs/define-job';
import type { Queue } from '@server/jobs/queue';
import { JOBS } from '@server/jobs/registry';
import { now } from '@server/lib/clock';
import { notFound } from '@server/lib/errors';
import {
  type AutomatedSchedule,
  type AutomatedSchedules,
  DAY_RUNS_COUNTED,
  type ScheduleRun,
  type ScheduleRunOutcome,
} from '@shared/admin-schedules';
import { eq, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { describeCron } from './cron-words';

/*
 * Automated Schedules: the registry's jobs that run on a cron. Runs are read from pg-boss's own job
 * table (pg-boss keeps finished jobs there until its retention deletes them; nothing is copied). A pause
 * is a row in paused_schedules plus the schedule taken off pg-boss's schedule table, so no worker sends
 * the job on its cron until it is resumed; the worker's start-up honours the row (worker/workers.ts).
 */

const ERROR_LENGTH = 1000;

type ScheduledJob = AnyJobDefinition & { cron: string };

export function scheduledJobs(): ScheduledJob[] {
  return JOBS.filter((job): job is ScheduledJob => typeof job.cron === 'string');
}

function scheduledJob(name: string): ScheduledJob {
  const job = scheduledJobs().find((candidate) => candidate.name === name);
  if (!job) throw notFound('There is no scheduled job of this name.');
  return job;
}

/** Names of the jobs an operator paused: the worker leaves their cron unscheduled. */
export async function pausedJobNames(options: { db: Database }): Promise<Set<string>> {
  const rows = await options.db.select({ name: pausedSchedules.jobName }).from(pausedSchedules);
  return new Set(rows.map((row) => row.name));
}

type RunRow = {
  name: string;
  id: string | null;
  state: string | null;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  output: unknown;
  completed_day: number;
  failed_day: number;
  counted: number;
  pending: number;
};

const OUTCOMES: Record<string, ScheduleRunOutcome> = {
  active: 'running',
  completed: 'completed',
  failed: 'failed',
  retry: 'retrying',
  cancelled: 'cancelled',
};

function errorText(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  if (typeof output === 'object') {
    const message = (output as { message?: unknown }).message;
    if (typeof message === 'string') return message.slice(0, ERROR_LENGTH);
  }
  return (typeof output === 'string' ? output : JSON.stringify(output)).slice(0, ERROR_LENGTH);
}

function toRun(row: RunRow): ScheduleRun | null {
  if (!row.id || !row.started_on || !row.state) return null;
  const startedAt = new Date(row.started_on);
  const finished = row.state !== 'active' && row.completed_on ? new Date(row.completed_on) : null;
  const failed = row.state === 'failed' || row.state === 'retry';
  return {
    jobId: row.id,
    outcome: OUTCOMES[row.state] ?? 'completed',
    startedAt: startedAt.toISOString(),
    finishedAt: finished?.toISOString() ?? null,
    durationMs: finished ? Math.max(0, finished.getTime() - startedAt.getTime()) : null,
    error: failed ? errorText(row.output) : null,
  };
}

export async function listSchedules(options: { db: Database; queue: Queue }): Promise<AutomatedSchedules> {
  const at = now();
  const jobs = scheduledJobs();
  const names = jobs.map((job) => job.name);
  // Per queue, three reads that each stay inside an index: its latest started job and the runs started
  // in the last day through job_run_history_idx (queue.ts), the jobs waiting through pg-boss's own index
  // of queued jobs. No scan of a queue's history: a week of dispatch-outbox wake-ups is ~1,200,000 rows.
  const result = await options.db.execute(sql`
    SELECT n.name, last.id, last.state, last.started_on, last.completed_on, last.output,
      day.completed_day, day.failed_day, day.counted, day.active + waiting.total AS pending
    FROM unnest(ARRAY[${sql.join(
      names.map((name) => sql`${name}`),
      sql`, `,
    )}]::text[]) AS n(name)
    LEFT JOIN LATERAL (
      SELECT j.id::text AS id, j.state::text AS state, j.started_on, j.completed_on, j.output
      FROM pgboss.job j
      WHERE j.name = n.name AND j.started_on IS NOT NULL
      ORDER BY j.started_on DESC
      LIMIT 1
    ) last ON true
    CROSS JOIN LATERAL (
      -- A run still active must have started within the day: the longest expiry of any job is 3 hours.
      -- Counted over the day's latest runs only, so a queue sent thousands of times a day costs no more
      -- than a minute cron's 1,440.
      SELECT
        count(*) FILTER (WHERE r.state = 'completed')::int AS completed_day,
        count(*) FILTER (WHERE r.state = 'failed')::int AS failed_day,
        count(*) FILTER (WHERE r.state = 'active')::int AS active,
        count(*)::int AS counted
      FROM (
        SELECT j.state FROM pgboss.job j
        WHERE j.name = n.name AND j.started_on IS NOT NULL AND j.started_on > now() - interval '1 day'
        ORDER BY j.started_on DESC
        LIMIT ${DAY_RUNS_COUNTED}
      ) r
    ) day
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS total FROM pgboss.job j
      WHERE j.name = n.name AND j.state < 'active' AND NOT j.blocked
    ) waiting`);
  const rows = new Map((result as unknown as { rows: RunRow[] }).rows.map((row) => [row.name, row]));
  const paused = new Map(
    (await options.db.select().from(pausedSchedules)).map((row) => [row.jobName, row] as const),
  );
  const schedules: AutomatedSchedule[] = jobs.map((job) => {
    const row = rows.get(job.name);
    const pause = paused.get(job.name);
    const next = pause ? null : (options.queue.previewSchedule(job.cron, { from: at, count: 1 })[0] ?? null);
    return {
      name: job.name,
      description: job.description,
      cron: job.cron,
      cronText: describeCron(job.cron),
      paused: Boolean(pause),
      pausedAt: pause?.pausedAt.toISOString() ?? null,
      pausedBy: pause?.pausedByEmail ?? null,
      nextRunAt: next?.toISOString() ?? null,
      lastRun: row ? toRun(row) : null,
      completedLastDay: Number(row?.completed_day ?? 0),
      failedLastDay: Number(row?.failed_day ?? 0),
      lastDayCapped: Number(row?.counted ?? 0) >= DAY_RUNS_COUNTED,
      pending: Number(row?.pending ?? 0),
    };
  });
  return { generatedAt: at.toISOString(), schedules };
}

/** Sends the job now, with the options its own sends carry. Answers pg-boss's job id (null if refused). */
export async function runScheduleNow(options: {
  db: Database;
  queue: Queue;
  actor: AuditActor;
  name: string;
}): Promise<string | null> {
  const job = scheduledJob(options.name);
  const jobId = await options.queue.send(job.name, {}, job.sendOptions ?? {});
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'schedule.run_now',
    targetType: 'schedule',
    targetId: job.name,
    details: { jobId },
  });
  return jobId;
}

/** Stops the job's cron until resumed. Pausing a paused schedule changes nothing and writes no entry. */
export async function pauseSchedule(options: {
  db: Database;
  queue: Queue;
  actor: AuditActor;
  name: string;
}): Promise<{ changed: boolean }> {
  const job = scheduledJob(options.name);
  const inserted = await options.db
    .insert(pausedSchedules)
    .values({
      jobName: job.name,
      pausedAt: now(),
      pausedById: options.actor.id,
      pausedByEmail: options.actor.email,
    })
    .onConflictDoNothing()
    .returning({ name: pausedSchedules.jobName });
  // Taken off pg-boss's schedule table either way, should a worker have put it back meanwhile.
  await options.queue.unschedule(job.name);
  if (inserted.length === 0) return { changed: false };
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'schedule.pause',
    targetType: 'schedule',
    targetId: job.name,
    details: { cron: job.cron },
  });
  return { changed: true };
}

/** Puts the job's cron back. Resuming a running schedule changes nothing and writes no entry. */
export async function resumeSchedule(options: {
  db: Database;
  queue: Queue;
  actor: AuditActor;
  name: string;
}): Promise<{ changed: boolean }> {
  const job = scheduledJob(options.name);
  const deleted = await options.db
    .delete(pausedSchedules)
    .where(eq(pausedSchedules.jobName, job.name))
    .returning({ name: pausedSchedules.jobName });
  await options.queue.schedule(job.name, job.cron, {});
  if (deleted.length === 0) return { changed: false };
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'schedule.resume',
    targetType: 'schedule',
    targetId: job.name,
    details: { cron: job.cron },
  });
  return { changed: true };
}
