import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Job schedules an operator paused (Automated Schedules screen). A row here keeps the job off pg-boss's
 * schedule table: pausing removes the schedule, resuming puts it back, and a worker starting up does not
 * schedule a paused job again. The job itself can still be run by hand.
 */
export const pausedSchedules = pgTable('paused_schedules', {
  jobName: text('job_name').primaryKey(),
  pausedAt: timestamp('paused_at', { withTimezone: true }).notNull().defaultNow(),
  pausedById: text('paused_by_id'),
  /** Copied so the screen still says who paused it after the admin's deletion. */
  pausedByEmail: text('paused_by_email'),
});
