import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/*
 * Roll-ups of the event log for the operator's analytics screens. email_events grows by millions of rows
 * and has no index by time alone (one would slow every tracking hit), so a scheduled job folds new events
 * (by id, after a watermark) into these small tables; the screens add the few events written since
 * (the live tail, a primary-key range) so their figures are current to the second.
 */

/** Events per UTC hour, by type and by whether a machine (proxy, scanner) made them. */
export const platformHourlyEvents = pgTable(
  'platform_hourly_events',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    type: text('type').notNull(),
    machine: boolean('machine').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.type, t.machine] })],
);

/**
 * Sent messages per UTC hour by how long they waited from queued to accepted by the SMTP server, as a
 * histogram: bucket k holds waits of [2^(k/4) − 1, 2^((k+1)/4) − 1) seconds, so percentiles over any
 * range are read to within ±9 %.
 */
export const platformSendLatency = pgTable(
  'platform_send_latency',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    bucket: integer('bucket').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.bucket] })],
);

/** Messages sent and replies per user per UTC day (top users, activation). No foreign key: history. */
export const platformUserDaily = pgTable(
  'platform_user_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    userId: text('user_id').notNull(),
    sent: bigint('sent', { mode: 'number' }).notNull().default(0),
    replied: bigint('replied', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.userId] })],
);

/**
 * Each user's events of all time and the UTC day of their first message sent (activation), so Cost
 * Optimization and Analytics need not group the whole event log by user. No foreign key: history.
 */
export const platformUserTotals = pgTable('platform_user_totals', {
  userId: text('user_id').primaryKey(),
  events: bigint('events', { mode: 'number' }).notNull().default(0),
  firstSentDay: date('first_sent_day', { mode: 'string' }),
});

/** How far each roll-up has read (the last email_events id folded in). */
export const platformStatsProgress = pgTable('platform_stats_progress', {
  name: text('name').primaryKey(),
  lastEventId: bigint('last_event_id', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/*
 * Each user's outbox figures for Cost Optimization, so the screen never groups the whole outbox by user.
 * Kept by statement-level triggers on outbox_messages (one upsert per statement, never per row, so a
 * dispatch batch pays one small write); exact at every commit, so the screen reads them as they are.
 * No foreign key: a user's rows go to zero and are removed when the user's messages are deleted.
 */

/** How many outbox messages each user has, in any state. */
export const outboxUserTotals = pgTable('outbox_user_totals', {
  userId: text('user_id').primaryKey(),
  messages: bigint('messages', { mode: 'number' }).notNull().default(0),
});

/** Each user's outbox messages with a send time (sent or bounced), per UTC day of that time, and the last one. */
export const outboxUserDaily = pgTable(
  'outbox_user_daily',
  {
    userId: text('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sent: bigint('sent', { mode: 'number' }).notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
    /**
     * The writer's share of the day: the dispatcher's "mark sent" of every batch adds to its user's day,
     * so each database backend keeps its own row (its pid) and two workers' transactions never wait on
     * each other's commit for one row (migration *_outbox_user_daily_slots). Readers add the slots up
     * (sent) or take the latest (last_sent_at); a newsletter's finish folds its user's slots back to 0.
     */
    slot: integer('slot').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.slot] }), index('outbox_user_daily_day_idx').on(t.day)],
);

/**
 * Each sender account's sending outcomes (sent, bounced, complained, failed) per UTC hour, for the Email
 * Processing monitor's last day and week, so a poll never reads a week of events one heap row at a time
 * (sender_account_id is in no index of email_events). Folded with the hourly roll-up (same watermark);
 * only events of a campaign are counted, as the monitor always did. Rows older than
 * ACCOUNT_HOURLY_KEEP_DAYS are removed by the roll-up job. No foreign key: history.
 */
export const platformAccountHourly = pgTable(
  'platform_account_hourly',
  {
    senderAccountId: uuid('sender_account_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    type: text('type').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.senderAccountId, t.hour, t.type] }),
    index('platform_account_hourly_hour_idx').on(t.hour),
  ],
);
