import { bigserial, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One page view of the public site, sent by the web app's first-party beacon. No address, no cookie
 * id: the visitor is a hash of address + user agent under a salt of the day (site_traffic_salts), so
 * the same person is one visitor within a day and cannot be followed across days or recovered.
 * Rows live 90 days (the purge-site-traffic job).
 */
export const sitePageViews = pgTable(
  'site_page_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** The path alone: query strings can carry addresses (the sign-up link pre-fills the email). */
    path: text('path').notNull(),
    /** The host of an outside referrer; null for direct visits and for moves within the site. */
    referrerHost: text('referrer_host'),
    /** ISO 3166 alpha-2 from the server's own geo lookup; null when unknown. */
    country: text('country'),
    visitorHash: text('visitor_hash').notNull(),
  },
  (t) => [
    index('site_page_views_occurred_idx').on(t.occurredAt),
    // Whether a visitor of the current hour was already seen earlier in the day (site_traffic_hourly).
    index('site_page_views_visitor_idx').on(t.visitorHash, t.occurredAt),
  ],
);

/**
 * The salt of the current day, shared by every web process so one visitor is one hash whichever
 * process answers. Older salts are deleted as soon as a new day's is made, so yesterday's hashes can
 * no longer be recomputed from an address.
 */
export const siteTrafficSalts = pgTable('site_traffic_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

/**
 * Page views of one finished UTC day, per dimension ('total', 'path', 'referrer', 'country'; key '' for
 * the total). Visitors are exact per day because a visitor hash lives one day, so summing days gives the
 * screen's "visitors, counted once per day each" without reading raw rows. Written by the roll-up
 * (site-traffic.service.ts rollUpTrafficDays): by the hourly job, or on demand for a day it missed.
 */
export const siteTrafficDaily = pgTable(
  'site_traffic_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    key: text('key').notNull(),
    views: integer('views').notNull(),
    visitors: integer('visitors').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.key] })],
);

/**
 * Page views of one finished hour, per dimension (as site_traffic_daily), so the last 24 hours and the
 * current day are read without scanning their raw rows. `visitors` are those seen in the hour;
 * `firstVisitors` those seen for the first time that UTC day (for this dimension and key), so today's
 * visitors are the sum over its hours; `lastVisitors` those seen for the last time that day, known once
 * the day is over (0 until then), so the visitors of a day's last N hours are the sum over them.
 * Today's hours are written as they finish; a finished day's hours are rewritten with the daily roll-up.
 */
export const siteTrafficHourly = pgTable(
  'site_traffic_hourly',
  {
    hour: timestamp('hour', { withTimezone: true, mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    key: text('key').notNull(),
    views: integer('views').notNull(),
    visitors: integer('visitors').notNull(),
    firstVisitors: integer('first_visitors').notNull(),
    lastVisitors: integer('last_visitors').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.dimension, t.key] })],
);
