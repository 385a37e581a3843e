import { sql } from 'drizzle-orm';
import { index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import {
  EMAIL_VERIFICATION_STATUSES,
  type EmailVerificationReason,
  LIST_VERIFICATION_STATES,
} from '../../../shared/verification';
import { users } from './auth';
import { contactLists } from './contacts';

/**
 * The latest verification result per address (lower-cased), shared by the directory and every user's
 * lists: an address is probed once however many lists hold it, and asked again only when the result is
 * old (or greylisted, at `retry_at`).
 */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    email: text('email').primaryKey(),
    domain: text('domain').notNull(),
    status: text('status', { enum: EMAIL_VERIFICATION_STATUSES }).notNull(),
    reason: text('reason').$type<EmailVerificationReason>().notNull(),
    smtpCode: smallint('smtp_code'),
    mxHost: text('mx_host'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    retryAt: timestamp('retry_at', { withTimezone: true }),
  },
  (t) => [
    index('email_verifications_domain_idx').on(t.domain),
    index('email_verifications_retry_idx').on(t.retryAt).where(sql`${t.retryAt} IS NOT NULL`),
  ],
);

/** A user's "Verify list" run: progress while it works through the list. */
export const listVerifications = pgTable(
  'list_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listId: uuid('list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    state: text('state', { enum: LIST_VERIFICATION_STATES }).notNull().default('queued'),
    total: integer('total').notNull().default(0),
    checked: integer('checked').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('list_verifications_user_list_idx').on(t.userId, t.listId, t.createdAt)],
);
