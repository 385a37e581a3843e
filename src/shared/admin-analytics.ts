import { z } from 'zod';

/*
 * The operator's figures (issue #15): System Analytics (the sending machine), Analytics (the business)
 * and the Database Monitor. Read live from the outbox, the event log (through its hourly roll-up and the
 * live tail after it), pg-boss, users, subscriptions and orders, and PostgreSQL's own statistics views.
 */

export const SYSTEM_RANGES = ['24h', '7d', '30d'] as const;
export type SystemRange = (typeof SYSTEM_RANGES)[number];
export const systemRangeQuerySchema = z.object({ range: z.enum(SYSTEM_RANGES).default('24h') });

export const BUSINESS_RANGES = ['7d', '30d', '90d', '365d'] as const;
export type BusinessRange = (typeof BUSINESS_RANGES)[number];
export const businessRangeQuerySchema = z.object({ range: z.enum(BUSINESS_RANGES).default('30d') });

/** One point of a System Analytics chart: a bucket of an hour (24 h), six hours (7 d) or a day (30 d). */
export const systemBucketSchema = z.object({
  /** The bucket's start (ISO, UTC). */
  at: z.string(),
  sent: z.number(),
  failed: z.number(),
  /** Temporary errors: the message was put back in the queue to be tried again. */
  deferred: z.number(),
  bounced: z.number(),
  opened: z.number(),
  /** Opens judged to be privacy proxies or scanners (counted in `opened` too). */
  openedMachine: z.number(),
  clicked: z.number(),
  clickedMachine: z.number(),
  /** Seconds from queued to accepted by the SMTP server (null: nothing sent in the bucket). */
  latencyP50: z.number().nullable(),
  latencyP95: z.number().nullable(),
  importRuns: z.number(),
  importRows: z.number(),
});
export type SystemBucket = z.infer<typeof systemBucketSchema>;

export const systemAnalyticsSchema = z.object({
  generatedAt: z.string(),
  range: z.enum(SYSTEM_RANGES),
  bucketSeconds: z.number(),
  from: z.string(),
  /** Events up to this id are in the hourly roll-up; later ones were counted live. */
  rolledUpThrough: z.number(),
  /** When the roll-up job last ran (null: never yet; everything was counted live). */
  rolledUpAt: z.string().nullable(),
  totals: z.object({
    sent: z.number(),
    failed: z.number(),
    deferred: z.number(),
    bounced: z.number(),
    opened: z.number(),
    openedMachine: z.number(),
    clicked: z.number(),
    clickedMachine: z.number(),
    /** (failed + bounced) / (sent + failed + bounced); null when nothing was tried. */
    errorRate: z.number().nullable(),
    /** deferred / (sent + failed + bounced + deferred); null when nothing was tried. */
    deferralRate: z.number().nullable(),
    latencyP50: z.number().nullable(),
    latencyP95: z.number().nullable(),
    importRuns: z.number(),
    importRows: z.number(),
  }),
  series: z.array(systemBucketSchema),
  activity: z.object({
    /** Sessions not expired now. */
    activeSessions: z.number(),
    /** People with a session used in the range. */
    activeUsers: z.number(),
    /** Sessions used in the last 15 minutes. */
    onlineSessions: z.number(),
  }),
  queue: z.object({
    /** Outbox messages due now and not yet sent. */
    outboxDue: z.number(),
    /** The oldest due message's send_after (how long it has waited). */
    oldestDueAt: z.string().nullable(),
    /** pg-boss jobs waiting to start. */
    jobsWaiting: z.number(),
  }),
});
export type SystemAnalytics = z.infer<typeof systemAnalyticsSchema>;

export const businessDaySchema = z.object({
  day: z.string(),
  signups: z.number(),
  activations: z.number(),
  conversions: z.number(),
  sent: z.number(),
  replied: z.number(),
  /** Paid orders that day, in kobo. */
  revenue: z.number(),
});
export type BusinessDay = z.infer<typeof businessDaySchema>;

export const planRevenueSchema = z.object({
  planId: z.string(),
  planName: z.string(),
  /** Active paid subscriptions on the plan now. */
  subscribers: z.number(),
  /** Monthly recurring revenue in kobo (annual plans at a twelfth of their price). */
  mrr: z.number(),
  /** Subscriptions on the plan that ended (cancelled or expired) in the range. */
  churned: z.number(),
  /** churned / (subscribers + churned); null without either. */
  churnRate: z.number().nullable(),
});
export type PlanRevenue = z.infer<typeof planRevenueSchema>;

export const topUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.string(),
  sent: z.number(),
  replied: z.number(),
});
export type TopUser = z.infer<typeof topUserSchema>;

export const businessAnalyticsSchema = z.object({
  generatedAt: z.string(),
  range: z.enum(BUSINESS_RANGES),
  from: z.string(),
  rolledUpAt: z.string().nullable(),
  totals: z.object({
    signups: z.number(),
    /** People whose first message went out in the range. */
    activations: z.number(),
    /** Of those who signed up in the range, how many have sent a message since. */
    signupsActivated: z.number(),
    /** People whose first paid order was in the range. */
    conversions: z.number(),
    /** Paid orders in the range, in kobo. */
    revenue: z.number(),
    mrr: z.number(),
    payingSubscribers: z.number(),
    churned: z.number(),
    sent: z.number(),
    replied: z.number(),
    totalUsers: z.number(),
  }),
  days: z.array(businessDaySchema),
  plans: z.array(planRevenueSchema),
  topUsers: z.array(topUserSchema),
});
export type BusinessAnalytics = z.infer<typeof businessAnalyticsSchema>;

export const tableSizeSchema = z.object({
  name: z.string(),
  /** Estimated rows (the planner's statistics; -1 or 0 before the first ANALYZE). */
  rowEstimate: z.number(),
  totalBytes: z.number(),
  tableBytes: z.number(),
  indexBytes: z.number(),
  deadRows: z.number().nullable(),
  lastVacuum: z.string().nullable(),
  lastAnalyze: z.string().nullable(),
});
export type TableSize = z.infer<typeof tableSizeSchema>;

export const indexSizeSchema = z.object({
  name: z.string(),
  table: z.string(),
  bytes: z.number(),
  scans: z.number().nullable(),
});
export type IndexSize = z.infer<typeof indexSizeSchema>;

export const slowStatementSchema = z.object({
  /** Normalized by pg_stat_statements: constants are $1, $2…, never the values. */
  query: z.string(),
  calls: z.number(),
  meanMs: z.number(),
  totalMs: z.number(),
  rows: z.number(),
});
export type SlowStatement = z.infer<typeof slowStatementSchema>;

export const runningQuerySchema = z.object({
  pid: z.number(),
  state: z.string(),
  application: z.string(),
  /** How long the statement has run, in seconds. */
  ageSeconds: z.number(),
  waitEvent: z.string().nullable(),
  /** The statement with its literals replaced by `?`. */
  query: z.string(),
});
export type RunningQuery = z.infer<typeof runningQuerySchema>;

export const databaseMonitorSchema = z.object({
  generatedAt: z.string(),
  engine: z.enum(['postgres', 'pglite']),
  version: z.string(),
  databaseBytes: z.number(),
  tables: z.array(tableSizeSchema),
  indexes: z.array(indexSizeSchema),
  /** null where the engine cannot tell (PGlite has one connection and no server processes). */
  connections: z
    .object({
      total: z.number(),
      active: z.number(),
      idle: z.number(),
      idleInTransaction: z.number(),
      max: z.number(),
    })
    .nullable(),
  /** Share of block reads served from shared buffers; null where no statistics are kept. */
  cacheHitRatio: z.number().nullable(),
  slowStatements: z.array(slowStatementSchema).nullable(),
  longRunning: z.array(runningQuerySchema).nullable(),
  /** What this engine cannot show, and how to get it; one sentence each. */
  notes: z.array(z.string()),
});
export type DatabaseMonitor = z.infer<typeof databaseMonitorSchema>;
