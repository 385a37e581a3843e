import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CONTACT_SOURCES,
  LIST_CONTACT_SOURCES,
  SUPPRESSION_REASONS,
  VERIFICATION_STATUSES,
} from '../../../shared/contacts';
import type { SegmentRule } from '../../../shared/segments';
import { users } from './auth';

/*
 * Contacts: the shared B2B directory (lead discovery), the user's own lists, and suppressions.
 *
 * Hand-written SQL lives in the contacts migration next to the generated DDL: the pg_trgm extension
 * (before the trigram indexes), the statement-level triggers that keep `directory_facet_counts` in
 * step with `directory_contacts` (`directory_facets_track`, `directory_facets_rebuild()`), and the one
 * that keeps `contact_lists.contact_count` in step with `list_contacts` (`list_contacts_track_count`).
 * Writers (the CSV importer included) therefore never maintain those counters themselves.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** The shared directory of businesses that lead discovery searches. Soft-deleted rows keep `deleted_at`. */
export const directoryContacts = pgTable(
  'directory_contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyName: text('company_name').notNull(),
    contactName: text('contact_name'),
    jobTitle: text('job_title'),
    email: text('email').notNull(),
    phone: text('phone'),
    website: text('website'),
    address: text('address'),
    city: text('city'),
    countryCode: text('country_code').notNull(),
    /** A slug of src/shared/categories.ts. */
    category: text('category').notNull(),
    source: text('source', { enum: CONTACT_SOURCES }).notNull(),
    /** The page a scraped record was found on (source = 'scraper'). */
    sourceUrl: text('source_url'),
    /** When the scraper read that page. */
    sourceCrawledAt: timestamp('source_crawled_at', { withTimezone: true }),
    /**
     * Generated demo/benchmark data on reserved domains (PRODUCT.md: "Sample data is labelled"). Never
     * verified (the check below), so the roll-up's `verified` column counts real records only.
     */
    synthetic: boolean('synthetic').notNull().default(false),
    verificationStatus: text('verification_status', { enum: VERIFICATION_STATUSES })
      .notNull()
      .default('unverified'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    verifiedBy: text('verified_by'),
    invalidReason: text('invalid_reason'),
    /**
     * When the email verifier last asked this record's mail server (verify-directory job): a record is
     * asked again after 90 days; null = never asked (first in line).
     */
    emailCheckedAt: timestamp('email_checked_at', { withTimezone: true }),
    createdBy: text('created_by'),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('directory_contacts_country_code_check', sql`${t.countryCode} ~ '^[A-Z]{2}$'`),
    check(
      'directory_contacts_synthetic_unverified_check',
      sql`NOT (${t.synthetic} AND ${t.verificationStatus} = 'verified')`,
    ),
    // "Verified" means evidence: a result always carries its date (PRODUCT.md).
    check(
      'directory_contacts_verified_dated_check',
      sql`${t.verificationStatus} <> 'verified' OR ${t.verifiedAt} IS NOT NULL`,
    ),
    uniqueIndex('directory_contacts_email_key').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
    // Lead discovery: equality filters first, then the sort key and id for keyset paging. With the
    // company name after the city, a page of a city and a category walks the index in order instead of
    // sorting every contact of the pair (thousands in a big city at ten million contacts).
    index('directory_contacts_geo_idx')
      .on(t.countryCode, t.category, t.city, t.companyName, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('directory_contacts_country_category_company_idx')
      .on(t.countryCode, t.category, t.companyName, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('directory_contacts_country_company_idx')
      .on(t.countryCode, t.companyName, t.id)
      .where(sql`${t.deletedAt} is null`),
    // A city without a category: without it the page reads every contact of the city to sort them,
    // which grows with the directory (a big city holds tens of thousands at ten million contacts).
    index('directory_contacts_country_city_company_idx')
      .on(t.countryCode, t.city, t.companyName, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('directory_contacts_category_company_idx')
      .on(t.category, t.companyName, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('directory_contacts_company_idx').on(t.companyName, t.id).where(sql`${t.deletedAt} is null`),
    // The verify-directory job's queue: never-asked records first, then the oldest answers.
    index('directory_contacts_email_check_idx')
      .on(sql`${t.emailCheckedAt} NULLS FIRST`, t.id)
      .where(sql`${t.deletedAt} is null and not ${t.synthetic}`),
    index('directory_contacts_created_idx').on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    // "Newest first" within a country or a category (a small country is otherwise found by walking
    // the whole created_at index).
    index('directory_contacts_country_created_idx')
      .on(t.countryCode, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('directory_contacts_category_created_idx')
      .on(t.category, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // …and within a city: a capital holds ~45,000 contacts at ten million, over a second to sort.
    index('directory_contacts_city_created_idx')
      .on(t.countryCode, t.city, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // The admin Contacts screen: one address (exact or by prefix) among live and deleted records alike.
    // Byte order (COLLATE "C") lets a prefix be one index range read in order.
    index('directory_contacts_email_c_idx').on(sql`lower(${t.email}) COLLATE "C"`),
    // Keyword search: the trigrams of both names next to the equality filters (btree_gin), so a keyword
    // within a country, category, city or "verified only" intersects posting lists inside the index and
    // reads only the rows that match, instead of every row of the directory whose name matches (a brand
    // word is ~80,000 rows at ten million, each read from the table to test its country). A keyword
    // alone uses just the trigram columns.
    index('directory_contacts_keyword_idx').using(
      'gin',
      t.countryCode,
      t.category,
      t.city,
      t.verificationStatus,
      t.companyName.op('gin_trgm_ops'),
      t.contactName.op('gin_trgm_ops'),
    ),
    // Data entry: the verification queue (oldest first) and each officer's own counts.
    index('directory_contacts_queue_idx')
      .on(t.verificationStatus, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // The recycle bin's listing and its purge job read deleted rows by age.
    index('directory_contacts_deleted_idx').on(t.deletedAt, t.id).where(sql`${t.deletedAt} is not null`),
    // Each officer's own records: every query names the officer, so rows nobody entered or verified (a
    // seed, an import, the scraper: nearly all of a large directory) need no entry, and a bulk load
    // does not sort millions of nulls to build them.
    index('directory_contacts_created_by_idx')
      .on(t.createdBy, t.createdAt)
      .where(sql`${t.createdBy} is not null`),
    index('directory_contacts_verified_by_idx')
      .on(t.verifiedBy, t.verifiedAt)
      .where(sql`${t.verifiedBy} is not null`),
    // "Verified" filters when verified records are few (a young real directory, or one of sample data,
    // which is never verified): without these, a verified-only page walks the whole sort index to find
    // nothing. Each holds verified rows only.
    index('directory_contacts_verified_company_idx')
      .on(t.companyName, t.id)
      .where(sql`${t.deletedAt} is null AND ${t.verificationStatus} = 'verified'`),
    index('directory_contacts_verified_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null AND ${t.verificationStatus} = 'verified'`),
    // "Is there sample data?" (the subscriber's banner) without walking a large real directory.
    index('directory_contacts_synthetic_idx')
      .on(t.countryCode)
      .where(sql`${t.synthetic} AND ${t.deletedAt} is null`),
  ],
);

/**
 * Audience roll-up of the live directory, kept by triggers on `directory_contacts` and rebuilt by
 * `directory_facets_rebuild()`. One row per (country, category, city) plus one row per
 * (country, category) with city = '' holding the all-cities totals, so an unfiltered count reads a few
 * thousand rows. The flag filters only ever require a flag, so each subset of (verified, phone, website)
 * has its own column.
 */
export const directoryFacetCounts = pgTable(
  'directory_facet_counts',
  {
    countryCode: text('country_code').notNull(),
    category: text('category').notNull(),
    /** '' = all cities of the country and category (including contacts without a city). */
    city: text('city').notNull(),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    verified: bigint('verified', { mode: 'number' }).notNull().default(0),
    withPhone: bigint('with_phone', { mode: 'number' }).notNull().default(0),
    withWebsite: bigint('with_website', { mode: 'number' }).notNull().default(0),
    verifiedPhone: bigint('verified_phone', { mode: 'number' }).notNull().default(0),
    verifiedWebsite: bigint('verified_website', { mode: 'number' }).notNull().default(0),
    phoneWebsite: bigint('phone_website', { mode: 'number' }).notNull().default(0),
    verifiedPhoneWebsite: bigint('verified_phone_website', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.countryCode, t.category, t.city] }),
    index('directory_facet_counts_city_category_idx').on(t.city, t.category),
  ],
);

/**
 * The countries and categories a user chose for lead discovery when the plan limits them (the plan's
 * countryLimit / categoryLimit say how many; the Free plan allows one of each).
 */
export const leadScopes = pgTable('lead_scopes', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  countryCodes: text('country_codes').array().notNull().default(sql`'{}'::text[]`),
  categories: text('categories').array().notNull().default(sql`'{}'::text[]`),
  ...timestamps,
});

/** A user's contact list. Deleting moves it to the recycle bin (`deleted_at`); purged after 30 days. */
export const contactLists = pgTable(
  'contact_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** Names of the list's custom fields; values live in list_contacts.custom_fields. Merge tags later. */
    customFields: jsonb('custom_fields').$type<string[]>().notNull().default([]),
    contactCount: integer('contact_count').notNull().default(0),
    /**
     * Frozen by a super admin (a list that looks bought or scraped): it cannot be an audience or take
     * new members until unfrozen. The reason is shown to the owner.
     */
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    frozenBy: text('frozen_by'),
    frozenReason: text('frozen_reason'),
    ...timestamps,
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // The admin User Lists screen: every live list, biggest first (keyset on size, id).
    index('contact_lists_size_idx').on(t.contactCount, t.id).where(sql`${t.deletedAt} is null`),
    uniqueIndex('contact_lists_user_name_key')
      .on(t.userId, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
    index('contact_lists_user_idx').on(t.userId, t.createdAt),
    index('contact_lists_deleted_idx').on(t.deletedAt).where(sql`${t.deletedAt} is not null`),
  ],
);

/** The members of a list. A bigint identity id keeps keyset paging and send batches cheap. */
export const listContacts = pgTable(
  'list_contacts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /*
     * No foreign keys (migrations 0005 and 0012): a key check on every row was a quarter of PostgreSQL's
     * work in a bulk import or an "add all matching" (~3 µs a row). What the keys gave is kept by hand:
     * - the cascade: a statement trigger on contact_lists deletes the members of deleted lists (and lists
     *   go with their user through their own key);
     * - no member of a list that is gone: every writer locks the list row (FOR KEY SHARE, or FOR UPDATE
     *   in the import's final transaction) and checks it exists before it commits, so a concurrent
     *   delete either waits for the writer and then removes its rows, or commits first and the writer
     *   finds no list and rolls back.
     */
    userId: text('user_id').notNull(),
    listId: uuid('list_id').notNull(),
    email: text('email').notNull(),
    /** The whole address lower-cased and trimmed: the duplicate key within a list. */
    emailNormalized: text('email_normalized').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    company: text('company'),
    jobTitle: text('job_title'),
    phone: text('phone'),
    website: text('website'),
    city: text('city'),
    countryCode: text('country_code'),
    customFields: jsonb('custom_fields').$type<Record<string, string>>().notNull().default({}),
    /** info@, sales@ …: deliverable but not a person; shown as a warning. */
    roleAddress: boolean('role_address').notNull().default(false),
    source: text('source', { enum: LIST_CONTACT_SOURCES }).notNull(),
    directoryContactId: uuid('directory_contact_id'),
    ...timestamps,
  },
  (t) => [
    unique('list_contacts_list_email_key').on(t.listId, t.emailNormalized),
    // The admin Contacts screen: an address across every user's lists (exact, or a prefix range).
    index('list_contacts_email_c_idx').on(sql`${t.emailNormalized} COLLATE "C"`),
    index('list_contacts_user_list_idx').on(t.userId, t.listId, t.id),
  ],
);

/**
 * An account's suppressions that outlive the account (PRODUCT.md: unsubscribes and bounces are honoured
 * forever): a trigger on the user table copies the unsubscribes, complaints and bounces (not the owner's
 * manual entries) when the account is deleted, keyed by a hash of the account's email, and a new account with that email gets them back
 * (suppression.service.ts, restoreSuppressionTombstones). The address's hash, the reason and the date
 * only: no address, not even its masked hint, since sign-up does not prove the new account owns the email.
 */
export const suppressionTombstones = pgTable(
  'suppression_tombstones',
  {
    /** sha256 hex of the deleted account's lower-cased email (computed in SQL on both sides). */
    ownerEmailHash: text('owner_email_hash').notNull(),
    emailHash: text('email_hash').notNull(),
    emailHint: text('email_hint').notNull(),
    reason: text('reason', { enum: SUPPRESSION_REASONS }).notNull(),
    source: text('source'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerEmailHash, t.emailHash] })],
);

/**
 * Addresses that must never be mailed: per user, or platform-wide when user_id is null. Only a hash of
 * the address is kept (it outlives the contact), with a masked hint such as `j***@example.com` to show.
 */
export const suppressions = pgTable(
  'suppressions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 hex of the trimmed, lower-cased address. */
    emailHash: text('email_hash').notNull(),
    emailHint: text('email_hint').notNull(),
    reason: text('reason', { enum: SUPPRESSION_REASONS }).notNull(),
    source: text('source'),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('suppressions_user_hash_key').on(t.userId, t.emailHash).nullsNotDistinct(),
    index('suppressions_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The admin Contacts screen: one address's entries across every owner.
    index('suppressions_hash_idx').on(t.emailHash),
  ],
);

/** A rule-based category move of the directory (/admin/recategorization), kept so it can be undone. */
export const directoryRecategorizations = pgTable('directory_recategorizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  rule: jsonb('rule')
    .$type<{ keyword: string; fromCategories: string[]; countries: string[]; toCategory: string }>()
    .notNull(),
  moved: integer('moved').notNull().default(0),
  state: text('state', { enum: ['applied', 'undone'] })
    .notNull()
    .default('applied'),
  restored: integer('restored'),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdByEmail: text('created_by_email'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  undoneAt: timestamp('undone_at', { withTimezone: true }),
});

/** Each record a move changed and the category it had before. */
export const directoryRecategorizationItems = pgTable(
  'directory_recategorization_items',
  {
    recategorizationId: uuid('recategorization_id')
      .notNull()
      .references(() => directoryRecategorizations.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id').notNull(),
    previousCategory: text('previous_category').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recategorizationId, t.contactId] })],
);

/** A list's public subscribe form (one per list): the hosted page and the embeddable snippet post to it. */
export const signupForms = pgTable(
  'signup_forms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listId: uuid('list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    consentText: text('consent_text').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('signup_forms_list_key').on(t.listId), index('signup_forms_user_idx').on(t.userId)],
);

/**
 * One signup: pending until the address's owner follows the signed link, then the consent record (when,
 * a hash of the IP, which form, the text they were shown). Kept after confirming, as the proof of consent.
 */
export const signupConsents = pgTable(
  'signup_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the form is removed: the consent outlives it as proof. */
    formId: uuid('form_id').references(() => signupForms.id, { onDelete: 'set null' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listId: uuid('list_id').notNull(),
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    firstName: text('first_name'),
    /** SHA-256 of the IP with the server's secret: enough to spot abuse, not to find the person. */
    ipHash: text('ip_hash').notNull(),
    consentText: text('consent_text').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    index('signup_consents_form_email_idx').on(t.formId, t.emailNormalized, t.requestedAt),
    index('signup_consents_ip_idx').on(t.ipHash, t.requestedAt),
  ],
);

/**
 * A saved narrowing of one list: its members matching `rules` (all or any of them), evaluated when it is
 * counted or sent to, so a segment follows the list as it changes. Rules are checked by
 * src/shared/segments.ts on the way in; the stored JSON is trusted only after that.
 */
export const segments = pgTable(
  'segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listId: uuid('list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    match: text('match', { enum: ['all', 'any'] })
      .notNull()
      .default('all'),
    rules: jsonb('rules').$type<SegmentRule[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    index('segments_user_list_idx').on(t.userId, t.listId),
    uniqueIndex('segments_list_name_key').on(t.listId, sql`lower(${t.name})`),
  ],
);
