import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The platform's settings (/admin/settings): one row per section, its value checked by the shared zod
 * schema on the way in and merged over the defaults on the way out.
 */
export const platformSettings = pgTable('platform_settings', {
  section: text('section').primaryKey(),
  value: jsonb('value').$type<Record<string, unknown>>().notNull(),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
