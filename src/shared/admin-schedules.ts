import { z } from 'zod';

/*
 * The Automated Schedules screen: every job of the registry that runs on a cron, with its last run read
 * from pg-boss's own job table, its next run computed from the cron, and the operator's pause.
 */

/** Runs of the last day counted per queue: more than a minute cron's 1,440, fewer than a busy queue's. */
export const DAY_RUNS_COUNTED = 2_000;

export const SCHEDULE_RUN_OUTCOMES = ['running', 'completed', 'failed', 'retrying', 'cancelled'] as const;
export type ScheduleRunOutcome = (typeof SCHEDULE_RUN_OUTCOMES)[number];

export const scheduleRunSchema = z.object({
  jobId: z.string(),
  outcome: z.enum(SCHEDULE_RUN_OUTCOMES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Null while the run is still going. */
  durationMs: z.number().nullable(),
  /** The error pg-boss recorded for a failed (or retrying) run. */
  error: z.string().nullable(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

export const automatedScheduleSchema = z.object({
  name: z.string(),
  description: z.string(),
  cron: z.string(),
  /** The cron in words, e.g. "Every 10 minutes". Times are UTC. */
  cronText: z.string(),
  paused: z.boolean(),
  pausedAt: z.string().nullable(),
  pausedBy: z.string().nullable(),
  /** Null while paused. */
  nextRunAt: z.string().nullable(),
  lastRun: scheduleRunSchema.nullable(),
  /** Runs started in the last 24 hours that completed, and that failed (retries used up). */
  completedLastDay: z.number(),
  failedLastDay: z.number(),
  /** The queue ran more than DAY_RUNS_COUNTED times in the day (the app also sends it): counts are of the latest. */
  lastDayCapped: z.boolean(),
  /** Jobs of this queue waiting or running now (a run asked for and not yet finished). */
  pending: z.number(),
});
export type AutomatedSchedule = z.infer<typeof automatedScheduleSchema>;

export const automatedSchedulesSchema = z.object({
  generatedAt: z.string(),
  schedules: z.array(automatedScheduleSchema),
});
export type AutomatedSchedules = z.infer<typeof automatedSchedulesSchema>;

export const scheduleParamsSchema = z.object({
  name: z
    .string()
    .max(64)
    .regex(/^[a-z0-9-]+$/, 'A schedule name has lower-case letters, digits and hyphens only'),
});

export const runScheduleResultSchema = z.object({ message: z.string(), jobId: z.string().nullable() });
export type RunScheduleResult = z.infer<typeof runScheduleResultSchema>;
