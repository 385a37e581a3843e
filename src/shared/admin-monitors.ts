import { z } from 'zod';
import { SENDER_STATUSES } from './sending';

/*
 * The operator's monitors (issue #15): the Email Queue (pg-boss's own job tables and the outbox) and
 * Email Processing (every sender account across all users). Read live; nothing is copied.
 */

export const queueSummarySchema = z.object({
  name: z.string(),
  policy: z.string(),
  /** created or retry, due now */
  waiting: z.number(),
  active: z.number(),
  /** created or retry with start_after in the future */
  delayed: z.number(),
  failed: z.number(),
  completedLastHour: z.number(),
  completedLastDay: z.number(),
  /** The oldest due waiting job's start (its age is how long the queue has kept it waiting). */
  oldestWaitingAt: z.string().nullable(),
});
export type QueueSummary = z.infer<typeof queueSummarySchema>;

export const reasonCountSchema = z.object({ reason: z.string(), count: z.number() });
export type ReasonCount = z.infer<typeof reasonCountSchema>;

/**
 * The outbox counts the monitors poll stop here: a count above it is sent as OUTBOX_COUNT_CAP + 1 and
 * shown as "100,000+", so a poll reads at most this many index entries per figure, however big the
 * outbox (a week of sends, a 1,000,000-recipient newsletter queued).
 */
export const OUTBOX_COUNT_CAP = 100_000;

/** An outbox count as shown: "100,000+" past the cap. */
export function cappedCountText(value: number, format: (n: number) => string): string {
  return value > OUTBOX_COUNT_CAP ? `${format(OUTBOX_COUNT_CAP)}+` : format(value);
}

export const outboxSummarySchema = z.object({
  queued: z.number(),
  /** Queued rows waiting for a later send_after (window, cap, pace, retry backoff). */
  queuedDeferred: z.number(),
  /** Queued messages of paused campaigns, held until they resume (counted up to the cap too). */
  queuedHeld: z.number(),
  claimed: z.number(),
  allocated: z.number(),
  delivering: z.number(),
  sent: z.number(),
  failed: z.number(),
  bounced: z.number(),
  suppressed: z.number(),
  cancelled: z.number(),
});
export type OutboxSummary = z.infer<typeof outboxSummarySchema>;

export const emailQueueStatusSchema = z.object({
  generatedAt: z.string(),
  queues: z.array(queueSummarySchema),
  outbox: outboxSummarySchema,
  /**
   * Queued messages put back with a reason (last_error), the most frequent reasons first, among the
   * `deferredReasonsSample` queued messages due last.
   */
  deferredReasons: z.array(reasonCountSchema),
  deferredReasonsSample: z.number(),
  /** Failed messages by reason, the most frequent first. */
  failedReasons: z.array(reasonCountSchema),
});
export type EmailQueueStatus = z.infer<typeof emailQueueStatusSchema>;

export const cursorQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const failedJobSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** 'failed' (retries used up) or 'retry' (failed an attempt, another is due). */
  state: z.enum(['failed', 'retry']),
  error: z.string().nullable(),
  retryCount: z.number(),
  at: z.string(),
});
export type FailedJob = z.infer<typeof failedJobSchema>;

export const failedJobListSchema = z.object({
  jobs: z.array(failedJobSchema),
  nextCursor: z.string().nullable(),
});
export type FailedJobList = z.infer<typeof failedJobListSchema>;

export const failedMessageSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  campaignStatus: z.string(),
  /** False once the campaign has ended (completed, stopped): nothing of it is sent any more. */
  canRetry: z.boolean(),
  /** Finished over a week ago and moved to the outbox archive: listed, never changed (retry and cancel: 409). */
  archived: z.boolean(),
  toEmail: z.string(),
  reason: z.string().nullable(),
  attempts: z.number(),
  at: z.string(),
});
export type FailedMessage = z.infer<typeof failedMessageSchema>;

export const failedMessageListSchema = z.object({
  messages: z.array(failedMessageSchema),
  nextCursor: z.string().nullable(),
});
export type FailedMessageList = z.infer<typeof failedMessageListSchema>;

export const jobParamsSchema = z.object({
  name: z.string().min(1).max(100),
  id: z.uuid(),
});

export const RETRIED_BY_ADMIN = 'Retried by an admin';

export const smtpCodeCountSchema = z.object({ code: z.string(), count: z.number() });

export const eventRatesSchema = z.object({
  sent: z.number(),
  bounced: z.number(),
  complained: z.number(),
  failed: z.number(),
  /** bounced / sent, 0 when nothing was sent */
  bounceRate: z.number(),
  complaintRate: z.number(),
});
export type EventRates = z.infer<typeof eventRatesSchema>;

export const senderMonitorRowSchema = z.object({
  id: z.string(),
  ownerId: z.string(),
  ownerEmail: z.string(),
  label: z.string(),
  fromEmail: z.string(),
  status: z.enum(SENDER_STATUSES),
  statusReason: z.string().nullable(),
  statusChangedAt: z.string().nullable(),
  timeZone: z.string(),
  sentToday: z.number(),
  capToday: z.number(),
  cooldownUntil: z.string().nullable(),
  /** Failed messages and failed events in the last 24 h. */
  errors24h: z.number(),
  /** SMTP reply codes found in those errors and in deferred messages' reasons, most frequent first. */
  smtpCodes: z.array(smtpCodeCountSchema),
  /** Messages of this account waiting in the queue after a temporary failure. */
  deferred: z.number(),
  last24h: eventRatesSchema,
  last7d: eventRatesSchema,
  imapEnabled: z.boolean(),
  /** A worker holds an IMAP IDLE connection to the mailbox now (new mail is read as it arrives). */
  imapIdle: z.boolean(),
  imapCheckedAt: z.string().nullable(),
  imapError: z.string().nullable(),
});
export type SenderMonitorRow = z.infer<typeof senderMonitorRowSchema>;

export const senderMonitorQuerySchema = z.object({
  status: z.enum(SENDER_STATUSES).optional(),
  search: z.string().trim().max(200).optional(),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type SenderMonitorQuery = z.infer<typeof senderMonitorQuerySchema>;

export const senderMonitorListSchema = z.object({
  generatedAt: z.string(),
  accounts: z.array(senderMonitorRowSchema),
  nextCursor: z.string().nullable(),
  totals: z.object({ active: z.number(), paused: z.number(), failing: z.number() }),
});
export type SenderMonitorList = z.infer<typeof senderMonitorListSchema>;
