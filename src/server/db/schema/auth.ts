import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Tables read and written by better-auth (core + admin plugin), plus our profile and subscription columns.

export const users = pgTable(
  'user',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    role: text('role').notNull().default('user'),
    banned: boolean('banned').default(false),
    banReason: text('ban_reason'),
    banExpires: timestamp('ban_expires', { withTimezone: true }),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name'),
    subscriptionPlan: text('subscription_plan').notNull().default('free'),
    subscriptionStatus: text('subscription_status'),
    subscriptionInterval: text('subscription_interval'),
    subscriptionCurrentPeriodEnd: timestamp('subscription_current_period_end', { withTimezone: true }),
  },
  (t) => [index('user_role_idx').on(t.role), index('user_created_at_idx').on(t.createdAt)],
);

export const sessions = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    impersonatedBy: text('impersonated_by'),
  },
  (t) => [index('session_user_id_idx').on(t.userId), index('session_expires_at_idx').on(t.expiresAt)],
);

export const accounts = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/**
 * Failed sign-ins per address (lower case), known or not, so a lockout looks the same for both. Kept in
 * the database so every web process sees the same count (auth-throttles.service.ts); an operator lists it.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    email: text('email').primaryKey(),
    failures: integer('failures').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }).notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('sign_in_failures_last_attempt_at_idx').on(t.lastAttemptAt)],
);

/** The reset mails sent to each address (lower case) within the last hour, at most a few. */
export const passwordResetMailLog = pgTable(
  'password_reset_mail_log',
  {
    email: text('email').primaryKey(),
    sentAt: timestamp('sent_at', { withTimezone: true }).array().notNull(),
    lastRequestedAt: timestamp('last_requested_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('password_reset_mail_log_last_requested_at_idx').on(t.lastRequestedAt)],
);
