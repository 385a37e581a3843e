import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { SCRAPE_JOB_STATUSES, SCRAPE_RESULT_STATUSES } from '../../../shared/scraper';
import { users } from './auth';
import { directoryContacts } from './contacts';

/*
 * The scraper. A job's frontier is its `scrape_pages` rows (pending ones are the queue), so a paused or
 * restarted crawl resumes where it stopped and never fetches a page twice. Hosts keep their robots.txt
 * and the earliest time we may fetch from them again, shared by every job and every worker process.
 */

export const scrapeJobs = pgTable(
  'scrape_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    seeds: text('seeds').array().notNull(),
    maxDepth: smallint('max_depth').notNull(),
    maxPages: integer('max_pages').notNull(),
    delaySeconds: smallint('delay_seconds').notNull(),
    sameSiteOnly: boolean('same_site_only').notNull().default(true),
    defaultCountryCode: text('default_country_code'),
    status: text('status', { enum: SCRAPE_JOB_STATUSES }).notNull().default('queued'),
    pagesFetched: integer('pages_fetched').notNull().default(0),
    pagesSkipped: integer('pages_skipped').notNull().default(0),
    recordsFound: integer('records_found').notNull().default(0),
    error: text('error'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('scrape_jobs_created_idx').on(t.createdAt)],
);

export const scrapePages = pgTable(
  'scrape_pages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => scrapeJobs.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    depth: smallint('depth').notNull(),
    /** A sitemap's entries are pages to fetch; the sitemap itself is read, not mined. */
    isSitemap: boolean('is_sitemap').notNull().default(false),
    status: text('status', { enum: ['pending', 'fetched', 'skipped'] })
      .notNull()
      .default('pending'),
    reason: text('reason'),
    httpStatus: smallint('http_status'),
    recordsFound: integer('records_found').notNull().default(0),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('scrape_pages_job_url_key').on(t.jobId, t.url),
    index('scrape_pages_frontier_idx').on(t.jobId, t.id).where(sql`${t.status} = 'pending'`),
  ],
);

export const scrapeHosts = pgTable('scrape_hosts', {
  /** Host name with port when not the default, lower case. */
  host: text('host').primaryKey(),
  robotsTxt: text('robots_txt'),
  /** 'ok' (rules in robots_txt), 'none' (404: everything allowed), 'unreachable' (5xx/network: nothing). */
  robotsState: text('robots_state', { enum: ['ok', 'none', 'unreachable'] }),
  robotsFetchedAt: timestamp('robots_fetched_at', { withTimezone: true }),
  nextFetchAt: timestamp('next_fetch_at', { withTimezone: true }).notNull().defaultNow(),
});

export const scrapeResults = pgTable(
  'scrape_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => scrapeJobs.id, { onDelete: 'cascade' }),
    sourceUrl: text('source_url').notNull(),
    crawledAt: timestamp('crawled_at', { withTimezone: true }).notNull(),
    companyName: text('company_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    website: text('website'),
    address: text('address'),
    city: text('city'),
    countryCode: text('country_code'),
    category: text('category'),
    status: text('status', { enum: SCRAPE_RESULT_STATUSES }).notNull().default('pending'),
    /** The live directory record with the same address, found when the result was saved. */
    duplicateOfId: uuid('duplicate_of_id').references(() => directoryContacts.id, { onDelete: 'set null' }),
    directoryContactId: uuid('directory_contact_id').references(() => directoryContacts.id, {
      onDelete: 'set null',
    }),
    reviewedBy: text('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    // One result per address across all crawls: a second crawl finding it again adds nothing to review.
    uniqueIndex('scrape_results_email_key').on(sql`lower(${t.email})`),
    index('scrape_results_queue_idx').on(t.status, t.crawledAt, t.id),
    index('scrape_results_job_idx').on(t.jobId, t.status),
  ],
);
