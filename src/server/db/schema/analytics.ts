import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/*
 * Roll-ups of email_events for the subscriber's analytics and the campaign counts, kept in step with the
 * log by statement-level triggers of migration 0049 (one set-based statement per inserted batch, in the
 * inserting transaction: dispatch, tracking hits, inbound, recovery, tests alike). `analytics_rebuild()`
 * (scripts/rebuild-analytics.ts) recomputes them from the log; it gives the same rows (analytics_weekly may
 * keep rows of zeros where the rebuild writes none).
 *
 * The counts are the campaign page's (COUNT_COLUMNS): distinct messages (or contacts, for replies and
 * unsubscribes) per kind. A distinct count cannot be summed across days, so two facts are kept:
 * - analytics_marks: "this subject had a kind-K event on day D" (a row per subject, kind and UTC day). A
 *   mark new to the table adds one to that day's count: the daily series (distinct per day) is exact.
 * - analytics_lasts: the last day a subject had a kind-K event. `<kind>_last` of a day counts the
 *   subjects whose last day it is, so the subjects with an event since day F (periods end now) are the
 *   sum of `<kind>_last` over days ≥ F: the period and all-time totals are exact too.
 * 'sent' (kind 0) keeps neither (migration 0070): a message has one 'sent' event at most (only its first
 * acceptance writes one, delivery-outcomes.ts), so that event is its one mark and its last day, and the
 * trigger counts it straight into the day's `sent` and `sent_last`.
 *
 * Kinds (smallint): 0 sent, 1 opened, 2 opened by a person, 3 clicked by a person, 4 replied (contact),
 * 5 bounced, 6 unsubscribed or complained (contact), 7 failed.
 */

/** Events without a campaign are counted under this id (a primary key column cannot be null). */
export const NO_CAMPAIGN_ID = '00000000-0000-0000-0000-000000000000';

export const analyticsMarks = pgTable(
  'analytics_marks',
  {
    /** outbox_message_id, or campaign_contact_id for kinds 4 and 6. */
    subject: uuid('subject').notNull(),
    kind: smallint('kind').notNull(),
    day: date('day').notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.kind, t.day] })],
);

export const analyticsLasts = pgTable(
  'analytics_lasts',
  {
    subject: uuid('subject').notNull(),
    kind: smallint('kind').notNull(),
    lastDay: date('last_day').notNull(),
    /** The last day before the latest move (how the trigger learns which day to take one from). */
    prevDay: date('prev_day'),
  },
  (t) => [primaryKey({ columns: [t.subject, t.kind] })],
);

const counts = {
  sent: integer('sent').notNull().default(0),
  opened: integer('opened').notNull().default(0),
  openedHuman: integer('opened_human').notNull().default(0),
  clicked: integer('clicked').notNull().default(0),
  replied: integer('replied').notNull().default(0),
  bounced: integer('bounced').notNull().default(0),
  unsubscribed: integer('unsubscribed').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  sentLast: integer('sent_last').notNull().default(0),
  openedLast: integer('opened_last').notNull().default(0),
  openedHumanLast: integer('opened_human_last').notNull().default(0),
  clickedLast: integer('clicked_last').notNull().default(0),
  repliedLast: integer('replied_last').notNull().default(0),
  bouncedLast: integer('bounced_last').notNull().default(0),
  unsubscribedLast: integer('unsubscribed_last').notNull().default(0),
  failedLast: integer('failed_last').notNull().default(0),
};

/** Per user, campaign and UTC day: distinct subjects with an event that day, and whose last day it is. */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    userId: text('user_id').notNull(),
    campaignId: uuid('campaign_id').notNull(),
    day: date('day').notNull(),
    ...counts,
    /**
     * The writer's share (migration *_analytics_slots): the dispatcher records every batch's 'sent' events
     * into its user's and campaign's day, so each database backend keeps its own row (its pid) and two
     * workers' transactions never wait on each other's commit for one row. Readers add the slots up; the
     * rebuild writes slot 0, and a newsletter's finish folds its sender's slots back into it.
     */
    slot: integer('slot').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day, t.campaignId, t.slot] }),
    index('analytics_daily_campaign_idx').on(t.campaignId, t.day),
  ],
);

const lastCounts = {
  sentLast: integer('sent_last').notNull().default(0),
  openedLast: integer('opened_last').notNull().default(0),
  openedHumanLast: integer('opened_human_last').notNull().default(0),
  clickedLast: integer('clicked_last').notNull().default(0),
  repliedLast: integer('replied_last').notNull().default(0),
  bouncedLast: integer('bounced_last').notNull().default(0),
  unsubscribedLast: integer('unsubscribed_last').notNull().default(0),
  failedLast: integer('failed_last').notNull().default(0),
};

/**
 * analytics_daily summed over the campaigns (a user's totals and daily series from one row a day). The
 * `<kind>_last` counts add up over campaigns and days, as the per-day counts do over campaigns.
 */
export const analyticsUserDaily = pgTable(
  'analytics_user_daily',
  {
    userId: text('user_id').notNull(),
    day: date('day').notNull(),
    ...counts,
    /** The writer's share, as analytics_daily's. */
    slot: integer('slot').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.slot] })],
);

/**
 * analytics_daily's `<kind>_last` counts summed per ISO week (Monday): a campaign's period totals read the
 * whole weeks here and only the days at the period's two ends from analytics_daily.
 */
export const analyticsWeekly = pgTable(
  'analytics_weekly',
  {
    userId: text('user_id').notNull(),
    campaignId: uuid('campaign_id').notNull(),
    week: date('week').notNull(),
    ...lastCounts,
    /** The writer's share, as analytics_daily's. */
    slot: integer('slot').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.week, t.campaignId, t.slot] })],
);

/**
 * How far retention has expired email_events (features/analytics/event-partitions.service.ts): every
 * event before `expired_before` (a UTC month's start) is gone, its month's partition dropped. The
 * roll-ups of those days are kept (they are the only record left), so `analytics_rebuild()` recomputes
 * only the days from here on. No row: nothing has expired.
 */
export const eventRetention = pgTable('event_retention', {
  /** The table expired: 'email_events'. */
  name: text('name').primaryKey(),
  expiredBefore: timestamp('expired_before', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
