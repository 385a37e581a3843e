import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  type CampaignAudience,
  NEWSLETTER_STATUSES,
  STEP_CONDITIONS,
  VARIANT_KEYS,
  WINNER_METRICS,
} from '../../../shared/campaigns';
import { BODY_FORMATS, CAMPAIGN_KINDS, CAMPAIGN_STATUSES, TIMEZONE_MODES } from '../../../shared/sending';
import { TEST_RUN_STEP_STATES } from '../../../shared/test-runs';
import { users } from './auth';
import { senderAccounts } from './sending';

/*
 * What the user writes: campaigns (audience, schedule, pacing), their steps and A/B variants, newsletters
 * and bulk emails, the template library and AI usage. The sending engine's own tables (campaign_contacts,
 * outbox…) are in sending.ts.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: CAMPAIGN_KINDS }).notNull().default('campaign'),
    status: text('status', { enum: CAMPAIGN_STATUSES }).notNull().default('draft'),
    /** Lists and saved lead-discovery filters; copied into campaign_contacts at launch. */
    audience: jsonb('audience').$type<CampaignAudience>().notNull().default({ listIds: [], leadFilters: [] }),
    /** Launch later: the campaign is 'scheduled' until then. */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** Sending window in minutes after local midnight: [start, end). */
    windowStartMinute: integer('window_start_minute')
      .notNull()
      .default(8 * 60),
    windowEndMinute: integer('window_end_minute')
      .notNull()
      .default(17 * 60),
    /** ISO weekdays (1 = Monday) on which mail may leave. */
    sendDays: integer('send_days').array().notNull().default(sql`'{1,2,3,4,5}'::integer[]`),
    timezoneMode: text('timezone_mode', { enum: TIMEZONE_MODES }).notNull().default('recipient'),
    timeZone: text('time_zone').notNull().default('Africa/Lagos'),
    gapMinSeconds: integer('gap_min_seconds').notNull().default(60),
    gapMaxSeconds: integer('gap_max_seconds').notNull().default(180),
    /** At most this many messages of this campaign a day (null: only the accounts' caps). */
    dailyCap: integer('daily_cap'),
    /** At most this many messages an hour to one recipient domain (null: no limit). */
    domainPacePerHour: integer('domain_pace_per_hour'),
    trackOpens: boolean('track_opens').notNull().default(true),
    trackClicks: boolean('track_clicks').notNull().default(true),
    /** How the body is sent (shared/campaigns.ts BODY_FORMATS): formatted HTML, or plain text first. */
    bodyFormat: text('body_format', { enum: BODY_FORMATS }).notNull().default('html'),
    /** A CNAME of the user's pointing at us, used in tracking links instead of APP_URL. */
    trackingDomain: text('tracking_domain'),
    /** The campaign pauses itself when hard bounces pass this share of its sends (after 20 sends)… */
    bouncePausePercent: doublePrecision('bounce_pause_percent').notNull().default(5),
    /** …or spam complaints pass this one. */
    complaintPausePercent: doublePrecision('complaint_pause_percent').notNull().default(0.3),
    /** Why it was paused for its owner: too many bounces or complaints, or the account's suspension (null when paused by hand, cleared on resume). */
    pausedReason: text('paused_reason'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** In the admin recycle bin (only drafts are deleted): gone for the owner, purged after 30 days. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('campaigns_user_idx').on(t.userId, t.createdAt),
    // The target of the outbox's key (campaign_id, user_id): a message's owner is its campaign's.
    uniqueIndex('campaigns_id_user_key').on(t.id, t.userId),
    index('campaigns_deleted_idx').on(t.deletedAt, t.id).where(sql`${t.deletedAt} is not null`),
    check('campaigns_gap_check', sql`${t.gapMinSeconds} >= 0 and ${t.gapMaxSeconds} >= ${t.gapMinSeconds}`),
    check(
      'campaigns_window_check',
      sql`${t.windowStartMinute} between 0 and 1440 and ${t.windowEndMinute} between 0 and 1440`,
    ),
  ],
);

export const campaignSteps = pgTable(
  'campaign_steps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 1-based order in the sequence. */
    position: integer('position').notNull(),
    delayDays: integer('delay_days').notNull().default(0),
    delayHours: integer('delay_hours').notNull().default(0),
    /** Count the delay in working days (Monday–Friday). */
    businessDays: boolean('business_days').notNull().default(false),
    condition: text('condition', { enum: STEP_CONDITIONS }).notNull().default('always'),
    winnerMetric: text('winner_metric', { enum: WINNER_METRICS }),
    winnerAfterSends: integer('winner_after_sends'),
    /** Set once the winner rule has picked a variant; later contacts all get it. */
    winnerVariantKey: text('winner_variant_key', { enum: VARIANT_KEYS }),
    ...timestamps,
  },
  (t) => [uniqueIndex('campaign_steps_campaign_position_key').on(t.campaignId, t.position)],
);

export const campaignStepVariants = pgTable(
  'campaign_step_variants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stepId: uuid('step_id')
      .notNull()
      .references(() => campaignSteps.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    key: text('key', { enum: VARIANT_KEYS }).notNull(),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    splitPercent: integer('split_percent').notNull().default(100),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_step_variants_step_key').on(t.stepId, t.key),
    check('campaign_step_variants_split_check', sql`${t.splitPercent} between 0 and 100`),
  ],
);

/** Newsletters (block editor) and bulk emails (one rich-text message): one send to lists. */
export const newsletters = pgTable(
  'newsletters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['newsletter', 'bulk'] })
      .notNull()
      .default('newsletter'),
    name: text('name').notNull(),
    subject: text('subject').notNull().default(''),
    preheader: text('preheader').notNull().default(''),
    /** The block editor's document (newsletters); null for bulk emails. */
    blocks: jsonb('blocks').$type<unknown[]>(),
    /** Rendered, email-safe HTML (from the blocks, or the bulk email's body). */
    html: text('html').notNull().default(''),
    text: text('text').notNull().default(''),
    status: text('status', { enum: NEWSLETTER_STATUSES }).notNull().default('draft'),
    listIds: uuid('list_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Segments narrowing some of those lists (at most one per list; segments.service checks). */
    segmentIds: uuid('segment_ids').array().notNull().default(sql`'{}'::uuid[]`),
    senderAccountIds: uuid('sender_account_ids').array().notNull().default(sql`'{}'::uuid[]`),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The sending engine's campaign row (kind newsletter/bulk) created when it is sent. */
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    /** Opaque id of the public web version (/n/<token>). */
    webToken: text('web_token').notNull(),
    /** Listed on the sender's public archive (once sent, and while the archive is on). */
    inArchive: boolean('in_archive').notNull().default(false),
    /** In the admin recycle bin: gone for the owner (web version included), purged after 30 days. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * While a run of the finish walks the send's contacts (newsletter-send.service.ts): until when it holds
     * the send, renewed as it goes. Other runs leave the send to it rather than walking the same rows
     * behind its locks; one that died lets its lease run out, and the per-minute schedule takes over.
     */
    finishingUntil: timestamp('finishing_until', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('newsletters_user_idx').on(t.userId, t.createdAt),
    index('newsletters_deleted_idx').on(t.deletedAt, t.id).where(sql`${t.deletedAt} is not null`),
    uniqueIndex('newsletters_web_token_key').on(t.webToken),
    index('newsletters_scheduled_idx').on(t.scheduledAt).where(sql`${t.status} = 'scheduled'`),
    // The report's trigger finds an event's newsletter by its engine campaign (newsletter-report.ts).
    index('newsletters_campaign_idx').on(t.campaignId).where(sql`${t.campaignId} is not null`),
  ],
);

/**
 * A user's public archive of sent newsletters (/archive/<slug>): off until they turn it on. The slug is
 * random and can be replaced, which retires the old address.
 */
export const newsletterArchives = pgTable(
  'newsletter_archives',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('newsletter_archives_slug_key').on(t.slug)],
);

/** The template library (user_id null, managed by super admins) and each user's own saved templates. */
export const emailTemplates = pgTable(
  'email_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Stable id of a library template (seeded from code); null for users' own. */
    slug: text('slug'),
    kind: text('kind', { enum: ['email', 'newsletter'] })
      .notNull()
      .default('email'),
    category: text('category').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    /** Newsletter layouts: the block document. */
    blocks: jsonb('blocks').$type<unknown[]>(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    published: boolean('published').notNull().default(true),
    /** A user's own template in the admin recycle bin (library templates are deleted at once). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('email_templates_deleted_idx').on(t.deletedAt, t.id).where(sql`${t.deletedAt} is not null`),
    uniqueIndex('email_templates_slug_key').on(t.slug).where(sql`${t.slug} is not null`),
    index('email_templates_user_idx').on(t.userId, t.category),
    index('email_templates_category_idx').on(t.category).where(sql`${t.userId} is null`),
  ],
);

/** One row per AI generation, for the per-plan daily limit. */
export const aiGenerations = pgTable(
  'ai_generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_generations_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Test runs of a sequence (shared/test-runs.ts): one row per run, one per step in
 * campaign_test_run_messages with the rendered copy and its progress. Nothing here touches the
 * campaign's contacts, outbox or stats.
 */
export const campaignTestRuns = pgTable(
  'campaign_test_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    senderAccountId: uuid('sender_account_id').references(() => senderAccounts.id, {
      onDelete: 'set null',
    }),
    toEmail: text('to_email').notNull(),
    contactEmail: text('contact_email').notNull(),
    sample: boolean('sample').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The hourly limit counts a user's runs; the steps page shows a campaign's latest.
    index('campaign_test_runs_user_idx').on(t.userId, t.createdAt),
    index('campaign_test_runs_campaign_idx').on(t.campaignId, t.createdAt),
  ],
);

export const campaignTestRunMessages = pgTable(
  'campaign_test_run_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => campaignTestRuns.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** Subject as written for the contact, without "[Test]" (added when sent, with "Re: " when threaded). */
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    /** A follow-up replying in the thread of the run's earlier messages. */
    threaded: boolean('threaded').notNull().default(false),
    state: text('state', { enum: TEST_RUN_STEP_STATES }).notNull().default('queued'),
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    messageId: text('message_id'),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('campaign_test_run_messages_run_position_key').on(t.runId, t.position)],
);
