import { z } from 'zod';

/*
 * The operator's Logs, Alerting and Cache Monitor screens (issue #15), super admins only.
 */

export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LogLevelName = keyof typeof LOG_LEVELS;
export const LOG_LEVEL_NAMES = Object.keys(LOG_LEVELS) as LogLevelName[];

export function logLevelName(level: number): LogLevelName {
  let name: LogLevelName = 'trace';
  for (const candidate of LOG_LEVEL_NAMES) if (level >= LOG_LEVELS[candidate]) name = candidate;
  return name;
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const logQuerySchema = z
  .object({
    /** The lowest level shown (warn shows warn, error and fatal). */
    level: z.enum(LOG_LEVEL_NAMES as [LogLevelName, ...LogLevelName[]]).optional(),
    from: z.iso
      .datetime({ offset: true, message: 'Use a date and time like 2026-01-31T09:00:00Z' })
      .optional(),
    to: z.iso.datetime({ offset: true, message: 'Use a date and time like 2026-01-31T09:00:00Z' }).optional(),
    requestId: optionalText(100),
    /** A user's id or email address. */
    user: optionalText(320),
    /** Part of a route pattern, e.g. /api/campaigns */
    route: optionalText(200),
    job: optionalText(100),
    /** Words in the message. */
    q: optionalText(200),
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, {
    message: 'The start of the time range must be before its end',
    path: ['from'],
  });
export type LogQuery = z.input<typeof logQuerySchema>;

export const logLineSchema = z.object({
  id: z.string(),
  time: z.string(),
  level: z.number(),
  levelName: z.string(),
  process: z.string(),
  msg: z.string(),
  requestId: z.string().nullable(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  method: z.string().nullable(),
  route: z.string().nullable(),
  statusCode: z.number().nullable(),
  job: z.string().nullable(),
  jobId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type LogLine = z.infer<typeof logLineSchema>;

export const logSinkStatsSchema = z.object({
  written: z.number(),
  dropped: z.number(),
  queued: z.number(),
  failedInserts: z.number(),
  lastError: z.string().nullable(),
});

export const logSearchResultSchema = z.object({
  generatedAt: z.string(),
  lines: z.array(logLineSchema),
  nextCursor: z.string().nullable(),
  /** The table's bounds (the prune job keeps it within both). */
  maxRows: z.number(),
  retentionDays: z.number(),
  oldestAt: z.string().nullable(),
  /** This web process's writer into the table since it started. */
  sink: logSinkStatsSchema,
});
export type LogSearchResult = z.infer<typeof logSearchResultSchema>;

export const ALERT_RULE_KEYS = [
  'queue_backlog_age',
  'failed_jobs',
  'bounce_spike',
  'complaint_rate',
  'payment_failures',
  'error_rate',
  'worker_not_seen',
  'database_size',
] as const;
export type AlertRuleKey = (typeof ALERT_RULE_KEYS)[number];

export const alertRuleSchema = z.object({
  key: z.enum(ALERT_RULE_KEYS),
  name: z.string(),
  description: z.string(),
  unit: z.string(),
  enabled: z.boolean(),
  threshold: z.number(),
  defaultThreshold: z.number(),
  lastValue: z.number().nullable(),
  lastDetail: z.string().nullable(),
  lastEvaluatedAt: z.string().nullable(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertSchema = z.object({
  id: z.string(),
  ruleKey: z.string(),
  ruleName: z.string(),
  state: z.enum(['open', 'acknowledged', 'resolved']),
  value: z.number(),
  threshold: z.number(),
  lastValue: z.number(),
  unit: z.string(),
  message: z.string(),
  openedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  notified: z.number(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertingOverviewSchema = z.object({
  generatedAt: z.string(),
  rules: z.array(alertRuleSchema),
  /** Open and acknowledged first, then the latest resolved ones. */
  alerts: z.array(alertSchema),
});
export type AlertingOverview = z.infer<typeof alertingOverviewSchema>;

export const alertRuleUpdateSchema = z
  .object({
    enabled: z.boolean().optional(),
    threshold: z
      .number({ message: 'The threshold must be a number' })
      .finite()
      .min(0, 'The threshold cannot be negative')
      .max(1_000_000_000, 'The threshold is too large')
      .optional(),
  })
  .refine((v) => v.enabled !== undefined || v.threshold !== undefined, {
    message: 'Change the threshold or switch the rule on or off',
  });
export type AlertRuleUpdate = z.infer<typeof alertRuleUpdateSchema>;

export const alertEvaluationSchema = z.object({
  evaluated: z.number(),
  opened: z.number(),
  resolved: z.number(),
  message: z.string(),
});

export const cacheSnapshotSchema = z.object({
  name: z.string(),
  description: z.string(),
  size: z.number(),
  hits: z.number(),
  misses: z.number(),
  hitRate: z.number().nullable(),
  oldestEntryAt: z.string().nullable(),
});
export type CacheSnapshotView = z.infer<typeof cacheSnapshotSchema>;

export const cacheListSchema = z.object({
  generatedAt: z.string(),
  /** web, or app when web and workers share one process (the embedded default). */
  process: z.string(),
  caches: z.array(cacheSnapshotSchema),
});
export type CacheList = z.infer<typeof cacheListSchema>;
