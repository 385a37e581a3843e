import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { INBOX_CATEGORIES } from '../../../shared/inbox';
import {
  CAMPAIGN_CONTACT_STATUSES,
  type DomainCheck,
  EMAIL_EVENT_TYPES,
  OUTBOX_STATES,
  SENDER_STATUSES,
  SMTP_SECURITY,
} from '../../../shared/sending';
import { users } from './auth';
import { campaigns } from './campaigns';

/*
 * The sending engine: sender accounts, each recipient's place in a campaign (the campaigns table itself
 * is in campaigns.ts), the outbox (one row per message, a state
 * machine with leases), per-domain pacing counters and the event log analytics aggregates.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const senderAccounts = pgTable(
  'sender_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    fromName: text('from_name').notNull(),
    fromEmail: text('from_email').notNull(),
    replyTo: text('reply_to'),
    /** Who "we" are in the copy: `{{ senderCompany }}`; null when the sender has not named one. */
    company: text('company'),
    postalAddress: text('postal_address').notNull(),
    smtpHost: text('smtp_host').notNull(),
    smtpPort: integer('smtp_port').notNull(),
    smtpSecurity: text('smtp_security', { enum: SMTP_SECURITY }).notNull(),
    smtpUser: text('smtp_user').notNull(),
    /** AES-256-GCM sealed (src/server/lib/crypto.ts); the sealed value names the key that sealed it. */
    smtpPasswordEnc: text('smtp_password_enc').notNull(),
    imapEnabled: boolean('imap_enabled').notNull().default(false),
    imapHost: text('imap_host'),
    imapPort: integer('imap_port'),
    imapSecurity: text('imap_security', { enum: SMTP_SECURITY }),
    imapUser: text('imap_user'),
    imapPasswordEnc: text('imap_password_enc'),
    /** The sealed passwords' format: 1 = v1 (no key id), 2 = v2 (names its key; resealed at start-up). */
    keyVersion: integer('key_version').notNull().default(2),
    dailyCap: integer('daily_cap').notNull().default(50),
    warmupEnabled: boolean('warmup_enabled').notNull().default(false),
    warmupStart: integer('warmup_start').notNull().default(10),
    warmupIncrement: integer('warmup_increment').notNull().default(5),
    /** The account-local day the ramp started on (day 0). */
    warmupStartedOn: date('warmup_started_on'),
    /** The account's own day for caps ("today" is the day in this zone). */
    timeZone: text('time_zone').notNull().default('Africa/Lagos'),
    dkimSelector: text('dkim_selector'),
    status: text('status', { enum: SENDER_STATUSES }).notNull().default('active'),
    statusReason: text('status_reason'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    /** Consecutive authentication failures; several in a row mark the account failing. */
    authFailures: integer('auth_failures').notNull().default(0),
    /** Sends counted against `sendsDay` (the account-local date); a new day starts from zero. */
    sendsToday: integer('sends_today').notNull().default(0),
    sendsDay: date('sends_day'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** The campaign's random gap: the account sends nothing more before then. */
    nextSendAt: timestamp('next_send_at', { withTimezone: true }),
    /** After a temporary error the account rests until then. */
    cooldownUntil: timestamp('cooldown_until', { withTimezone: true }),
    imapUidValidity: bigint('imap_uid_validity', { mode: 'number' }),
    imapLastUid: bigint('imap_last_uid', { mode: 'number' }),
    imapCheckedAt: timestamp('imap_checked_at', { withTimezone: true }),
    imapError: text('imap_error'),
    domainCheck: jsonb('domain_check').$type<DomainCheck>(),
    domainCheckedAt: timestamp('domain_checked_at', { withTimezone: true }),
    /** The built-in "Tambari test mailbox" of the embedded default. */
    isDevMailbox: boolean('is_dev_mailbox').notNull().default(false),
    /**
     * A certificate the owner chose to trust (PEM; self-signed or from a private CA). With one, the server
     * must present exactly this certificate (its SHA-256 fingerprint); without, the usual public CAs.
     */
    smtpTlsCert: text('smtp_tls_cert'),
    imapTlsCert: text('imap_tls_cert'),
    /** Copy each sent campaign message into the mailbox's Sent folder (needs IMAP). */
    sentFolderEnabled: boolean('sent_folder_enabled').notNull().default(true),
    /** The last failed copy's fixed message (never the server's words); cleared by the next success. */
    sentFolderError: text('sent_folder_error'),
    sentFolderAppendedAt: timestamp('sent_folder_appended_at', { withTimezone: true }),
    /** Added below replies sent from the inbox. */
    signature: text('signature'),
    ...timestamps,
  },
  (t) => [
    index('sender_accounts_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('sender_accounts_user_from_key').on(t.userId, sql`lower(${t.fromEmail})`),
    check('sender_accounts_daily_cap_check', sql`${t.dailyCap} between 1 and 300`),
    check('sender_accounts_sends_today_check', sql`${t.sendsToday} between 0 and 300`),
  ],
);

/**
 * Sent messages waiting to be copied to their account's Sent folder over IMAP, exactly as they went out.
 * Written off the send path (buffered, multi-row inserts) and deleted once appended; rows older than two
 * days are dropped unsent, so an unreachable mailbox holds at most two days of an account's sends (a few
 * hundred messages: 300 a day at most).
 */
export const sentFolderCopies = pgTable(
  'sent_folder_copies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    senderAccountId: uuid('sender_account_id')
      .notNull()
      .references(() => senderAccounts.id, { onDelete: 'cascade' }),
    raw: text('raw').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sent_folder_copies_account_idx').on(t.senderAccountId, t.id)],
);

export const campaignSenderAccounts = pgTable(
  'campaign_sender_accounts',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    senderAccountId: uuid('sender_account_id')
      .notNull()
      .references(() => senderAccounts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.senderAccountId] }),
    index('campaign_sender_accounts_account_idx').on(t.senderAccountId),
  ],
);

/** A recipient's place in a campaign: a reply, bounce or unsubscribe ends their sequence here. */
export const campaignContacts = pgTable(
  'campaign_contacts',
  {
    /** Time-ordered (uuid_v7(), migration 0071): a newsletter's recipients sit together in every key. */
    id: uuid('id').primaryKey().default(sql`uuid_v7()`),
    campaignId: uuid('campaign_id').notNull(),
    /** Always the campaign's owner: the key to campaigns is (campaign_id, user_id). */
    userId: text('user_id').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    company: text('company'),
    countryCode: text('country_code'),
    city: text('city'),
    /** Resolved from country/city when the contact joins; used for recipient-time-zone windows. */
    timeZone: text('time_zone'),
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    status: text('status', { enum: CAMPAIGN_CONTACT_STATUSES }).notNull().default('active'),
    /** The last step queued for this contact (0: none yet). */
    currentStep: integer('current_step').notNull().default(0),
    /** When the next step is due (its delay after the last one was sent); null while nothing is due. */
    nextStepAt: timestamp('next_step_at', { withTimezone: true }),
    /** Where the contact came from: a list row or a directory contact. */
    listContactId: bigint('list_contact_id', { mode: 'number' }),
    directoryContactId: uuid('directory_contact_id'),
    /** A reply marked "won" with its deal value (analytics: revenue and ROI). */
    wonAt: timestamp('won_at', { withTimezone: true }),
    dealValue: numeric('deal_value', { precision: 14, scale: 2 }),
    dealCurrency: text('deal_currency'),
    /** Out of office: no mail before this time. */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_contacts_campaign_email_key').on(t.campaignId, sql`lower(${t.email})`),
    // Not status in the predicate (migration 0072): an update that only changes the status (a newsletter's
    // finish, a reply) stays HOT: the new version on the row's page (fillfactor 50), no new index entries. Readers filter
    // status = 'active' themselves, and every way out of 'active' but a pause clears next_step_at.
    // Keyed by campaign first (migration 0076): the sequencer's per-campaign due check and claim read only
    // that campaign's due contacts, not every campaign's due contacts filtered in the heap. Same columns as
    // before, so no update that was HOT stops being HOT (next_step_at was indexed already).
    index('campaign_contacts_next_step_idx')
      .on(t.campaignId, t.nextStepAt)
      .where(sql`${t.nextStepAt} is not null`),
    // Out of office until a date: the sequencer's per-minute resume finds the due ones here instead of
    // reading the whole table. paused_until changes only when a contact pauses or resumes, so the sends'
    // updates stay as HOT as before; no status in the predicate, as above.
    index('campaign_contacts_paused_until_idx').on(t.pausedUntil).where(sql`${t.pausedUntil} is not null`),
    index('campaign_contacts_user_email_idx').on(t.userId, sql`lower(${t.email})`),
    // Erasing an address everywhere finds its recipients across all users.
    index('campaign_contacts_email_idx').on(sql`lower(${t.email})`),
    // One key to the campaign and its owner together (as the outbox's): one check per recipient added
    // instead of two, the owner enforced to be the campaign's, and a user's deletion still reaches here
    // through their campaigns.
    foreignKey({
      name: 'campaign_contacts_campaign_user_fk',
      columns: [t.campaignId, t.userId],
      foreignColumns: [campaigns.id, campaigns.userId],
    }).onDelete('cascade'),
  ],
);

/**
 * The outbox's columns, shared by the live table, the archive of finished rows and the view over both
 * (outbox_archive, outbox_all below).
 */
const outboxMessageColumns = {
  /**
   * Time-ordered (uuid_v7(), migration 0071): the rows queued together are claimed and sent together, and
   * their key entries stay on a few neighbouring index pages however large the outbox is.
   */
  id: uuid('id').primaryKey().default(sql`uuid_v7()`),
  /** Opaque public id used by the open pixel, click links and the unsubscribe page. */
  token: text('token').notNull(),
  /** Always its campaign's owner: the live table's key to campaigns is (campaign_id, user_id). */
  userId: text('user_id').notNull(),
  campaignId: uuid('campaign_id').notNull(),
  campaignContactId: uuid('campaign_contact_id')
    .notNull()
    .references(() => campaignContacts.id, { onDelete: 'cascade' }),
  /** The campaigns issue's step and A/B variant; free text ids so this table does not depend on them. */
  stepId: uuid('step_id'),
  variantKey: text('variant_key'),
  toEmail: text('to_email').notNull(),
  toName: text('to_name'),
  subject: text('subject').notNull(),
  /**
   * The bodies, when the message has them of its own. A message queued from a body it shares with
   * others (a newsletter's copies) names it in `bodyId` instead and has no html, text or links here:
   * outbox_all shows them resolved, and the dispatcher puts the message's token into the shared HTML.
   */
  html: text('html'),
  text: text('text'),
  /** The shared body (outbox_bodies) this message's html, text and links are, with its own token. */
  bodyId: uuid('body_id'),
  /**
   * Our RFC 5322 Message-ID (without angle brackets) on the sending account's domain: set when the
   * message is first given an account, then kept, so a retry carries the same id.
   */
  messageId: text('message_id'),
  /**
   * A follow-up sent as a reply in the contact's thread (its step left the subject empty): the
   * Message-ID it answers and the thread's earlier ids, oldest first (no angle brackets).
   */
  inReplyTo: text('in_reply_to'),
  threadReferences: jsonb('thread_references').$type<string[]>(),
  /**
   * The account this message must go from while that account can send for the campaign: the one that
   * sent the contact's earlier mail (one contact, one mailbox), or the one a template that needed a
   * real sender was rendered for. Null: any account, by Least Used rotation.
   */
  boundSenderAccountId: uuid('thread_sender_account_id'),
  /** Original URLs of tracked links, by index (click links carry only the index). */
  links: jsonb('links').$type<string[]>().default([]),
  senderAccountId: uuid('sender_account_id').references(() => senderAccounts.id, { onDelete: 'set null' }),
  state: text('state', { enum: OUTBOX_STATES }).notNull().default('queued'),
  /**
   * 'claimed' (leased, nothing taken yet), 'allocated' (an account and the caps' slots taken, no SMTP
   * yet) or 'delivering' (handed to an SMTP connection: DATA may have reached the server).
   */
  phase: text('phase'),
  /**
   * What an allocation took, so that recovery after a dead worker can give it back: the account-local
   * day of the account's daily count, the campaign-local day of the campaign's own cap, the hour of the
   * recipient domain's pace. Written with the account when the message is allocated.
   */
  slotDay: date('slot_day', { mode: 'string' }),
  campaignSlotDay: date('campaign_slot_day', { mode: 'string' }),
  paceHour: timestamp('pace_hour', { withTimezone: true }),
  /**
   * A queued message of a paused campaign: off the dispatcher's due index until the campaign resumes,
   * so that a paused send costs the claims of every other campaign nothing (a paused million used to
   * be stepped over row by row at every claim). Set for the campaign's queued rows when it is paused
   * and cleared when it resumes, in the same transaction as its status; the rest of the row, its
   * send_after included, is left as it was. Orthogonal to `state`: a held row is still 'queued'.
   */
  held: boolean('held').notNull().default(false),
  sendAfter: timestamp('send_after', { withTimezone: true }).notNull().defaultNow(),
  attempts: integer('attempts').notNull().default(0),
  leaseOwner: text('lease_owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastError: text('last_error'),
  smtpResponse: text('smtp_response'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  ...timestamps,
};

/**
 * One row per message. queued → sending → sent | failed | bounced | suppressed | cancelled.
 * A `sending` row is leased to one worker until `leaseUntil`; an expired lease is recovered (see
 * docs/sending.md). `phase` tells whether SMTP DATA may have started, which decides how it is recovered.
 */
export const outboxMessages = pgTable('outbox_messages', outboxMessageColumns, (t) => [
  uniqueIndex('outbox_messages_token_key').on(t.token),
  // Only rows that have an id: a queued message has none until an account is chosen, and each of its
  // writes (insert, claim) would otherwise add a NULL entry that no reader ever looks up. Lookups by id
  // (`message_id = ...`, `IN (...)`) imply NOT NULL, so the planner still uses this index for them.
  uniqueIndex('outbox_messages_message_id_key').on(t.messageId).where(sql`${t.messageId} is not null`),
  // The dispatcher's claim: due queued rows in send order, those of paused campaigns (held) left out.
  index('outbox_messages_due_idx').on(t.sendAfter).where(sql`${t.state} = 'queued' AND NOT ${t.held}`),
  // A paused campaign's held rows, for its resume (and the queue's count of them).
  index('outbox_messages_held_idx').on(t.campaignId).where(sql`${t.held} AND ${t.state} = 'queued'`),
  index('outbox_messages_lease_idx').on(t.leaseUntil).where(sql`${t.state} = 'sending'`),
  index('outbox_messages_campaign_idx').on(t.campaignId, t.state),
  index('outbox_messages_contact_idx').on(t.campaignContactId),
  // The Email Processing monitor's deferred count per account: only messages put back after a failed
  // attempt, a small part of the queue (every attempt already changes the row's state, so the
  // predicate's columns cost no HOT update).
  index('outbox_messages_deferred_account_idx')
    .on(t.senderAccountId)
    .where(sql`${t.state} = 'queued' and ${t.attempts} > 0`),
  index('outbox_messages_account_sent_idx')
    .on(t.senderAccountId, t.sentAt)
    .where(sql`${t.sentAt} is not null`),
  // One key to the campaign and its owner together, instead of one to campaigns and one to the user: a
  // row's owner is its campaign's owner (tenant isolation, now enforced), the user still exists because
  // the campaign's key to the user does, and deleting a user still deletes their messages (user ->
  // campaigns -> here, each ON DELETE CASCADE). Each insert pays one key check instead of two, and no
  // index on user_id is needed for the user's cascade: the campaign's cascade walks campaign_idx. Every
  // write of a row used to add an entry to a (user_id, created_at) index no query needed (migration
  // 0068_outbox_fewer_keys).
  foreignKey({
    name: 'outbox_messages_campaign_user_fk',
    columns: [t.campaignId, t.userId],
    foreignColumns: [campaigns.id, campaigns.userId],
  }).onDelete('cascade'),
]);

/**
 * Finished messages (sent, failed, bounced, suppressed, cancelled) moved out of the outbox a week after
 * they finished (features/sending/outbox-archive.service.ts), so the dispatcher's table holds only recent
 * rows. In the database it is partitioned by month on updated_at, a finished row's last change (migration
 * 0062_outbox_archive, hand-written: drizzle cannot declare partitions), so retention drops a month's
 * partition instead of deleting rows. A partitioned table's unique keys must hold the partition key,
 * hence the primary key (id, updated_at); ids, tokens and Message-IDs stay unique because they were
 * unique in the outbox, but no constraint here says so.
 */
export const outboxArchive = pgTable(
  'outbox_archive',
  { ...outboxMessageColumns, id: uuid('id').notNull() },
  (t) => [
    primaryKey({ columns: [t.id, t.updatedAt] }),
    foreignKey({
      name: 'outbox_archive_user_id_user_id_fk',
      columns: [t.userId],
      foreignColumns: [users.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'outbox_archive_campaign_id_campaigns_id_fk',
      columns: [t.campaignId],
      foreignColumns: [campaigns.id],
    }).onDelete('cascade'),
    index('outbox_archive_token_idx').on(t.token),
    index('outbox_archive_message_id_idx').on(t.messageId),
    index('outbox_archive_campaign_idx').on(t.campaignId, t.state),
    index('outbox_archive_contact_idx').on(t.campaignContactId),
    index('outbox_archive_account_sent_idx').on(t.senderAccountId, t.sentAt),
    index('outbox_archive_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Every message, live or archived (a UNION ALL view, migration 0062_outbox_archive): what reads finished
 * messages reads this, so a message keeps its reply matching, tracking, unsubscribe link and history
 * after it is archived. A row is in exactly one of the two tables (the move is one statement).
 */
export const outboxAll = pgView('outbox_all', {
  ...outboxMessageColumns,
  // Resolved from the shared body where the message has one (migration 0067_outbox_bodies).
  html: text('html').notNull(),
  links: jsonb('links').$type<string[]>().notNull(),
}).existing();

/**
 * Bodies shared by several queued messages of a campaign (a newsletter's copies, which differ only by
 * their token or by merge-tag values that repeat), stored once instead of in every outbox row: a row
 * without its ~8 KB of bodies is several times cheaper to insert and to write again at each state
 * change. `html` holds `standIn` where each message's token goes (outbox.service.ts bodyPreparer);
 * `digest` (of the bodies with the stand-in left out) finds the same body queued by another call.
 * Immutable once written. A body goes with its campaign or owner; outbox rows name it without a
 * foreign key (one more check per queued row), so bodies no message names any more are deleted where
 * messages go in bulk without their campaign (outbox-bodies.ts: archive expiry, erasure).
 */
export const outboxBodies = pgTable(
  'outbox_bodies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    digest: text('digest').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    links: jsonb('links').$type<string[]>().notNull(),
    standIn: text('stand_in').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('outbox_bodies_campaign_digest_key').on(t.campaignId, t.digest),
    index('outbox_bodies_user_idx').on(t.userId),
  ],
);

/** Per-user, per-recipient-domain hourly counters for the campaign's domain pace. */
/**
 * Sends each campaign has taken of its own daily cap, per day of the campaign's time zone. Taken
 * atomically before accounts are chosen and given back when a message does not leave, so several
 * workers never pass the cap between them (counting sent messages alone would let each worker's batch
 * in flight go unseen by the others).
 */
export const campaignSendDays = pgTable(
  'campaign_send_days',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.day] }),
    check('campaign_send_days_sent_check', sql`${t.sent} >= 0`),
  ],
);

export const domainPaceCounters = pgTable(
  'domain_pace_counters',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    hourStart: timestamp('hour_start', { withTimezone: true }).notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.domain, t.hourStart] })],
);

/**
 * Every state change and tracking hit. Analytics aggregates these; `machine` marks hits from privacy
 * proxies and link scanners so they can be counted apart from people.
 *
 * Append-only and written at tracking speed, so no foreign keys (migrations 0009 and 0013): a key check
 * per row costs a third of writing the row (docs/decisions/tracking-endpoints.md). Only draft campaigns
 * (no events yet) can be deleted, and a deleted sender account's events keep its id as history. The
 * owner's events go with the owner: a trigger on the user table deletes them and records the account in
 * deletedAccounts, and the hourly purge-deleted-account-events job deletes any event written for it
 * afterwards (an open or click already on its way when the account went).
 *
 * In the database it is partitioned by month on occurred_at (migration *_email_events_partitions, hand-
 * written: drizzle cannot declare partitions), so retention drops a month's partition instead of
 * deleting rows (features/analytics/event-partitions.service.ts). A partitioned table's unique keys must
 * hold the partition key, hence the primary key (id, occurred_at); the id alone is still unique (one
 * sequence for all partitions), and nothing may rely on a constraint saying so.
 */
export const emailEvents = pgTable(
  'email_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    userId: text('user_id').notNull(),
    campaignId: uuid('campaign_id'),
    stepId: uuid('step_id'),
    campaignContactId: uuid('campaign_contact_id'),
    outboxMessageId: uuid('outbox_message_id'),
    senderAccountId: uuid('sender_account_id'),
    type: text('type', { enum: EMAIL_EVENT_TYPES }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** Clicked URL, bounce diagnostic, reply subject… */
    detail: text('detail'),
    machine: boolean('machine').notNull().default(false),
    /** Why it was judged a machine: apple_mpp, scanner, prefetch… */
    machineReason: text('machine_reason'),
    userAgent: text('user_agent'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.occurredAt] }),
    index('email_events_campaign_idx').on(t.campaignId, t.type, t.occurredAt),
    index('email_events_user_idx').on(t.userId, t.occurredAt),
    index('email_events_message_idx').on(t.outboxMessageId),
    // The bounce and complaint alert rules count these over the last hour or day, platform-wide.
    index('email_events_bad_outcome_idx').on(t.occurredAt).where(sql`${t.type} in ('bounced', 'complained')`),
  ],
);

/** Messages read from a sender account's mailbox (IMAP) or simulated from the dev mailbox. */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    senderAccountId: uuid('sender_account_id').references(() => senderAccounts.id, { onDelete: 'set null' }),
    /** No foreign key: the message moves to outbox_archive a week after it finished (read outbox_all). */
    outboxMessageId: uuid('outbox_message_id'),
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    campaignContactId: uuid('campaign_contact_id').references(() => campaignContacts.id, {
      onDelete: 'set null',
    }),
    /** reply | out_of_office | bounce_hard | bounce_soft | complaint | other */
    kind: text('kind').notNull(),
    messageIdHeader: text('message_id_header'),
    fromAddress: text('from_address'),
    subject: text('subject'),
    textBody: text('text_body'),
    /** Parsed extras: bounce status code, diagnostic, out-of-office return date. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** The inbox's category: set by the rules when the mail arrives, then the user's to change. */
    category: text('category', { enum: INBOX_CATEGORIES }),
    categorySource: text('category_source', { enum: ['rule', 'user'] }),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** Out of the inbox's list until then. */
    snoozedUntil: timestamp('snoozed_until', { withTimezone: true }),
    note: text('note'),
  },
  (t) => [
    index('inbound_messages_user_idx').on(t.userId, t.receivedAt),
    // The inbox: a user's matched messages, newest first (unmatched mail keeps only its Message-ID).
    index('inbound_messages_inbox_idx')
      .on(t.userId, t.receivedAt.desc(), t.id.desc())
      .where(sql`${t.campaignId} is not null`),
    index('inbound_messages_contact_idx').on(t.campaignContactId, t.receivedAt),
    // The inbox's snoozed messages, subtracted live from the kept counts (a snooze ends by itself).
    index('inbound_messages_snoozed_idx')
      .on(t.userId, t.snoozedUntil)
      .where(sql`${t.campaignId} is not null and ${t.snoozedUntil} is not null`),
    index('inbound_messages_campaign_idx').on(t.campaignId, t.receivedAt),
    uniqueIndex('inbound_messages_account_msgid_key')
      .on(t.senderAccountId, t.messageIdHeader)
      .where(sql`${t.messageIdHeader} is not null`),
  ],
);

/**
 * The inbox's counts per user and category ('' for none): every matched message (snoozed or not) and the
 * unread ones. Kept by statement-level triggers on inbound_messages, whoever writes them, so opening the
 * inbox reads a few rows instead of counting the user's mail; the snoozed ones are subtracted live.
 */
export const inboxCounts = pgTable(
  'inbox_counts',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    total: integer('total').notNull().default(0),
    unread: integer('unread').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.category] })],
);

/**
 * Replies the user wrote in the inbox, sent through the account the conversation came through and kept
 * in its thread (the contact's conversation). Their Message-IDs let the next answer find its thread even
 * when the answering client keeps only In-Reply-To.
 */
export const inboxReplies = pgTable(
  'inbox_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    inboundMessageId: uuid('inbound_message_id').references(() => inboundMessages.id, {
      onDelete: 'set null',
    }),
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    campaignContactId: uuid('campaign_contact_id').references(() => campaignContacts.id, {
      onDelete: 'set null',
    }),
    /** The campaign message the conversation started from. */
    /** No foreign key: the message moves to outbox_archive a week after it finished (read outbox_all). */
    outboxMessageId: uuid('outbox_message_id'),
    senderAccountId: uuid('sender_account_id').references(() => senderAccounts.id, { onDelete: 'set null' }),
    /** Without angle brackets, as outbox_messages keeps them. */
    messageId: text('message_id').notNull(),
    inReplyTo: text('in_reply_to'),
    threadReferences: jsonb('thread_references').$type<string[]>().notNull().default([]),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('inbox_replies_message_id_key').on(t.messageId),
    index('inbox_replies_contact_idx').on(t.campaignContactId, t.sentAt),
    index('inbox_replies_user_idx').on(t.userId, t.sentAt),
  ],
);

/**
 * Accounts deleted in the last two days (written by the trigger on the user table, migration 0013), so
 * that events arriving after the deletion are deleted too. The id is the account's random id, nothing
 * personal.
 */
export const deletedAccounts = pgTable('deleted_accounts', {
  userId: text('user_id').primaryKey(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
});
