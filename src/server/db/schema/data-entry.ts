import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { DATA_ENTRY_QUEUES, REVIEW_OUTCOMES } from '../../../shared/data-entry';
import { users } from './auth';
import { directoryContacts } from './contacts';

/*
 * Data entry management: what each officer is assigned to (set by a super admin) and the second
 * reviews of a sample of their records, which give their quality figure.
 */

/** One officer's assignment. No row: unassigned (any country and category, no quota). */
export const dataEntryAssignments = pgTable(
  'data_entry_assignments',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    countryCode: text('country_code'),
    /** A slug of src/shared/categories.ts. */
    category: text('category'),
    queue: text('queue', { enum: DATA_ENTRY_QUEUES }).notNull().default('new_records'),
    /** Strict: the server refuses records outside the country and category; otherwise they are defaults. */
    strict: boolean('strict').notNull().default(false),
    /** Records a day the officer is expected to enter; null: no quota. */
    dailyQuota: integer('daily_quota'),
    updatedBy: text('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'data_entry_assignments_quota_check',
      sql`${t.dailyQuota} IS NULL OR ${t.dailyQuota} BETWEEN 1 AND 10000`,
    ),
  ],
);

/**
 * A super admin's second look at one record an officer entered: correct, corrected (something had to
 * be fixed) or invalid. One review per record; reviewing again replaces it.
 */
export const dataEntryReviews = pgTable(
  'data_entry_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    directoryContactId: uuid('directory_contact_id')
      .notNull()
      .references(() => directoryContacts.id, { onDelete: 'cascade' }),
    /** The officer who entered the record (directory_contacts.created_by when reviewed). */
    officerId: text('officer_id').notNull(),
    reviewerId: text('reviewer_id'),
    outcome: text('outcome', { enum: REVIEW_OUTCOMES }).notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('data_entry_reviews_contact_key').on(t.directoryContactId),
    index('data_entry_reviews_officer_idx').on(t.officerId, t.createdAt),
  ],
);
