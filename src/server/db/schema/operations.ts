import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/*
 * The operator's own tables: the searchable log (web and worker lines, bounded by the prune job),
 * alert rules and their alerts, and the workers' heartbeats.
 */

/** One pino line, already redacted. Bounded by row count and age (prune-app-logs job). */
export const appLogs = pgTable(
  'app_logs',
  {
    // Monotonic: the row cap deletes everything below (newest id − cap) without counting the table.
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    /** pino's numbers: 10 trace … 60 fatal. */
    level: smallint('level').notNull(),
    /** web, worker, or app (both in one process). */
    process: text('process').notNull(),
    msg: text('msg').notNull().default(''),
    requestId: text('request_id'),
    userId: text('user_id'),
    method: text('method'),
    /** The route's pattern (/api/campaigns/:id), never the raw URL with its query string. */
    route: text('route'),
    statusCode: integer('status_code'),
    job: text('job'),
    jobId: text('job_id'),
    /** Everything else on the line (error, response time…), secrets removed. */
    data: jsonb('data').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('app_logs_time_idx').on(t.time, t.id),
    index('app_logs_level_time_idx').on(t.level, t.time),
    index('app_logs_request_idx').on(t.requestId, t.time).where(sql`${t.requestId} is not null`),
    index('app_logs_user_idx').on(t.userId, t.time).where(sql`${t.userId} is not null`),
    index('app_logs_job_idx').on(t.job, t.time).where(sql`${t.job} is not null`),
    // "Message contains" and "route contains": trigram indexes, so a rare word is found without
    // reading the whole table (a frequent one is found sooner by walking the time index).
    index('app_logs_msg_trgm_idx').using('gin', t.msg.op('gin_trgm_ops')),
    index('app_logs_route_trgm_idx').using('gin', t.route.op('gin_trgm_ops')),
  ],
);

/** A rule's operator-set state; the rules themselves (what they measure) are code. */
export const alertRules = pgTable('alert_rules', {
  key: text('key').primaryKey(),
  enabled: boolean('enabled').notNull().default(true),
  threshold: doublePrecision('threshold').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by'),
  /** The last evaluation's measure, shown beside the threshold. */
  lastValue: doublePrecision('last_value'),
  lastDetail: text('last_detail'),
  lastEvaluatedAt: timestamp('last_evaluated_at', { withTimezone: true }),
});

export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;

export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ruleKey: text('rule_key').notNull(),
    state: text('state', { enum: ALERT_STATES }).notNull().default('open'),
    /** The measured value when it opened, and the threshold it crossed. */
    value: doublePrecision('value').notNull(),
    threshold: doublePrecision('threshold').notNull(),
    message: text('message').notNull(),
    lastValue: doublePrecision('last_value').notNull(),
    lastEvaluatedAt: timestamp('last_evaluated_at', { withTimezone: true }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: text('acknowledged_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** How many super admins the opening mail went to (0 when none could be mailed). */
    notified: integer('notified').notNull().default(0),
  },
  (t) => [
    // At most one alert per rule is open or acknowledged: evaluators racing in several processes
    // open it once, and only the one that inserted it sends the mail.
    uniqueIndex('alerts_one_active_per_rule').on(t.ruleKey).where(sql`${t.state} <> 'resolved'`),
    index('alerts_opened_at_idx').on(t.openedAt),
  ],
);

/** Each worker process's last sign of life (written every 30 s), for the "worker not seen" rule. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  id: text('id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
});
