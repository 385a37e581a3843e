import { bigint, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { campaigns } from './campaigns';

/*
 * A newsletter's report, kept as its send moves on: statement-level triggers on email_events,
 * outbox_messages and campaign_contacts (hand-written in migration *_newsletter_report) fold each
 * INSERT, UPDATE, DELETE or COPY batch of a newsletter's send into these two tables, so progress and
 * the report read a hundred counter rows instead of counting a million events and every recipient.
 * Keyed by the send's engine campaign (newsletters.campaign_id).
 */

/**
 * One counter per (metric, key): `opens`, `unique_opens`, `machine_opens`, `clicks`, `unique_clickers`,
 * `machine_clicks`, `bounces`, `unsubscribes`, `complaints` (key ''), `link_clicks` / `link_unique`
 * (key = md5 of the clicked URL, which `url` holds on the link_clicks row: a URL may be too long for
 * an index), `hour_opens` / `hour_clicks` (key = hours since sent_at, '0'–'47'), `outbox` (key = a
 * message state: the outbox's messages by state) and `recipients` (key ''). People only for opens, clicks, links and hours, as the report shows them.
 */
export const newsletterReportCounts = pgTable(
  'newsletter_report_counts',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    metric: text('metric').notNull(),
    key: text('key').notNull().default(''),
    url: text('url'),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    /**
     * The writer's share of the figure: the send's own counters (`outbox`, `recipients`) are moved by
     * every claim, record and queued batch of the send, so each database backend keeps its own row
     * (its pid) and concurrent transactions never wait on each other's commit for one counter row
     * (migration *_newsletter_count_slots). Readers add the slots up. The event figures keep slot 0.
     */
    slot: integer('slot').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.metric, t.key, t.slot] })],
);

/**
 * What each recipient has already been counted for, so the unique figures grow by first times only:
 * `o` opened (a person), `c` clicked (a person), `b` bounced, `u` unsubscribed, `x` complained, and
 * `l` + md5(url) clicked that link. INSERT … ON CONFLICT DO NOTHING RETURNING yields exactly the first
 * times, also between concurrent writers.
 */
export const newsletterReportSeen = pgTable(
  'newsletter_report_seen',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    campaignContactId: uuid('campaign_contact_id').notNull(),
    what: text('what').notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.campaignContactId, t.what] })],
);
