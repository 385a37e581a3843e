import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';

/**
 * Each /database-download a subscriber made: the audit trail of who took which directory records, and
 * what the plan's monthly allowance (pricing_plans.download_limit, in rows) is counted against. The
 * audit log also gets an entry (with the IP address) for the admin's Audit screen.
 */
export const databaseDownloads = pgTable(
  'database_downloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Directory records in the file. */
    rowCount: integer('row_count').notNull(),
    /** The lists the user chose (empty: all of their lists). */
    listIds: jsonb('list_ids').$type<string[]>().notNull().default([]),
    fileName: text('file_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('database_downloads_user_created_idx').on(t.userId, t.createdAt)],
);
