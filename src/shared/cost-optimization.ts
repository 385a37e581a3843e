import { z } from 'zod';

/*
 * Cost Optimization: where the database's space goes (per table and per user), what each user sends
 * and pays against it, paid accounts that send nothing, and data the purge jobs will remove.
 */

export const tableStorageSchema = z.object({
  schema: z.string(),
  table: z.string(),
  /** Table + indexes + TOAST, in bytes (pg_total_relation_size). */
  totalBytes: z.number(),
  /** The heap alone (pg_relation_size). */
  tableBytes: z.number(),
  indexBytes: z.number(),
  /** The planner's estimate (pg_class.reltuples); null before the table was first analyzed. */
  rowEstimate: z.number().nullable(),
});
export type TableStorage = z.infer<typeof tableStorageSchema>;

export const userCostSchema = z.object({
  userId: z.string(),
  email: z.string(),
  plan: z.string(),
  subscriptionStatus: z.string().nullable(),
  lists: z.number(),
  contacts: z.number(),
  outboxMessages: z.number(),
  events: z.number(),
  /** Messages sent (or bounced) since midnight UTC 30 days ago: whole UTC days, as the figures are kept. */
  sent30d: z.number(),
  /** Rows × the average size of a row of each table. */
  estimatedBytes: z.number(),
  /** Paid orders, in kobo (NGN), refunds excluded. */
  revenueKobo: z.number(),
});
export type UserCost = z.infer<typeof userCostSchema>;

export const idlePaidAccountSchema = z.object({
  userId: z.string(),
  email: z.string(),
  plan: z.string(),
  periodEnd: z.string().nullable(),
  lastSentAt: z.string().nullable(),
  revenueKobo: z.number(),
});
export type IdlePaidAccount = z.infer<typeof idlePaidAccountSchema>;

export const staleDataSchema = z.object({
  key: z.string(),
  label: z.string(),
  rows: z.number(),
  rule: z.string(),
  job: z.string(),
  cron: z.string(),
});
export type StaleData = z.infer<typeof staleDataSchema>;

export const costOptimizationSchema = z.object({
  generatedAt: z.string(),
  /** 'postgres' or 'pglite': PGlite's sizes are those of its own data files. */
  engine: z.enum(['postgres', 'pglite']),
  databaseBytes: z.number(),
  tables: z.array(tableStorageSchema),
  users: z.array(userCostSchema),
  /** How many users the per-user table was chosen from (it shows the largest, filtered by `user`). */
  usersTotal: z.number(),
  idlePaidAccounts: z.array(idlePaidAccountSchema),
  staleData: z.array(staleDataSchema),
});
export type CostOptimization = z.infer<typeof costOptimizationSchema>;

export const costQuerySchema = z.object({
  /** Narrows the per-user table to addresses containing this text. */
  user: z.string().trim().max(200).optional(),
});

/** How many users the per-user table shows (the largest by estimated storage). */
export const COST_USERS_LIMIT = 100;
/** A paid account that sent nothing for this long is idle. */
export const IDLE_PAID_DAYS = 30;
